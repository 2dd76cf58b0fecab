// The packed tarball and the consumer projects installed from it, made once per vitest run and
// shared by the package tests (test/package): packing and an offline `npm ci` of ~250 packages
// took a minute or more each, and every file did both. The run's folder comes from
// test/setup/pack-run.ts; the forks run in parallel, so each artifact is built under a lock.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { inject } from "vitest";
import { installConsumer, type Packed, packRepository, repoPackage } from "./pack.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** This run's folder for the packed tarball and its consumers (test/setup/pack-run.ts). */
    packRun: string;
  }
}

const dev = repoPackage.devDependencies as Record<string, string>;
/** The version an npm alias devDependency (`"ai-7": "npm:ai@7.0.173"`) names. */
const aliased = (alias: string) => dev[alias]!.replace(/^npm:(@?[^@]+)@/, "");

/**
 * The dependencies of the consumer most package tests share: the SDKs at the lowest ends of their
 * ranges and the ones the guides' examples use. One install serves a test that needs fewer: none
 * of these changes what toolplane loads (pack.test.ts checks the package imports only its own
 * dependencies and peers). A test that needs other versions gets a consumer of its own.
 */
export const SHARED_CONSUMER: Record<string, string> = {
  zod: repoPackage.dependencies.zod,
  "@modelcontextprotocol/sdk": repoPackage.dependencies["@modelcontextprotocol/sdk"],
  "@types/node": dev["@types/node"]!,
  ai: dev.ai!,
  "@ai-sdk/openai": dev["@ai-sdk/openai"]!,
  "@openai/agents": dev["@openai/agents"]!,
  "@anthropic-ai/sdk": dev["@anthropic-ai/sdk"]!,
  openai: dev.openai!,
  langchain: dev.langchain!,
  "@langchain/core": dev["@langchain/core"]!,
  "@anthropic-ai/claude-agent-sdk": dev["@anthropic-ai/claude-agent-sdk"]!,
};

/**
 * The consumer with the optional peers at the newest ends of their ranges (the npm aliases of
 * package.json), shared by the package tests that run an adapter at both ends: one install of it
 * per run (it holds Claude Code's 409 MB platform binary).
 */
export const NEWEST_CONSUMER = {
  dependencies: {
    zod: repoPackage.dependencies.zod,
    ai: aliased("ai-7"),
    "@openai/agents": aliased("openai-agents-0.20"),
    langchain: aliased("langchain-1.5"),
    "@langchain/core": aliased("langchain-core-1.4"),
    "@anthropic-ai/claude-agent-sdk": aliased("claude-agent-sdk-0.3"),
  } as Record<string, string>,
  aliases: {
    ai: "ai-7",
    "@openai/agents": "openai-agents-0.20",
    langchain: "langchain-1.5",
    "@langchain/core": "langchain-core-1.4",
    "@anthropic-ai/claude-agent-sdk": "claude-agent-sdk-0.3",
  } as Record<string, string>,
};

const WAIT_MS = 540_000;
const built = new Map<string, Promise<void>>();

/**
 * Runs `build(dir)` once per run across the forks: creating `dir` is the lock; the fork that made
 * it builds and marks it ready (or failed, with the error), the others wait for the mark.
 */
function once(dir: string, build: (dir: string) => void): Promise<void> {
  let done = built.get(dir);
  if (!done) {
    done = buildOrWait(dir, build);
    built.set(dir, done);
  }
  return done;
}

async function buildOrWait(dir: string, build: (dir: string) => void): Promise<void> {
  try {
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return waitFor(dir);
  }
  writeFileSync(path.join(dir, ".pid"), String(process.pid));
  try {
    build(dir);
  } catch (error) {
    writeFileSync(path.join(dir, ".failed"), String((error as Error).stack ?? error));
    throw error;
  }
  writeFileSync(path.join(dir, ".ready"), "");
}

async function waitFor(dir: string): Promise<void> {
  const read = (name: string) => {
    try {
      return readFileSync(path.join(dir, name), "utf8");
    } catch {
      return undefined;
    }
  };
  for (const start = Date.now(); Date.now() - start < WAIT_MS; await sleep(200)) {
    if (read(".ready") !== undefined) return;
    const failed = read(".failed");
    if (failed !== undefined) throw new Error(`another test file failed to build ${dir}:\n${failed}`);
    const pid = Number(read(".pid"));
    if (pid && !alive(pid)) throw new Error(`the test process building ${dir} (pid ${pid}) ended first`);
  }
  throw new Error(`${dir} was not built within ${WAIT_MS / 1000} s`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** This repository packed by `npm pack`, once per run. */
export async function packedTarball(): Promise<Packed> {
  const dir = path.join(inject("packRun"), "pack");
  await once(dir, (d) => {
    const packed = packRepository(d);
    writeFileSync(
      path.join(d, "packed.json"),
      JSON.stringify({ filename: packed.filename, files: packed.files }),
    );
  });
  const { filename, files } = JSON.parse(readFileSync(path.join(dir, "packed.json"), "utf8"));
  return { filename, files, tarball: readFileSync(path.join(dir, filename)) };
}

/**
 * A consumer project with the tarball and `dependencies` installed (`aliases`: see installConsumer),
 * once per run for each set. Tests share it: each writes its own files in a `workspace` of it.
 */
export async function packedConsumer(
  dependencies: Record<string, string> = SHARED_CONSUMER,
  aliases: Record<string, string> = {},
): Promise<string> {
  const packed = await packedTarball();
  const key = createHash("sha256")
    .update(JSON.stringify([Object.entries(dependencies).sort(), Object.entries(aliases).sort()]))
    .digest("hex")
    .slice(0, 16);
  const dir = path.join(inject("packRun"), `consumer-${key}`);
  await once(dir, (d) => installConsumer(path.join(d, "consumer"), packed, dependencies, aliases));
  return path.join(dir, "consumer");
}

/**
 * A fresh folder inside a shared consumer for one test file's files: code there resolves the
 * consumer's node_modules, and npm and npx find the consumer's package.json, by walking up.
 */
export function workspace(consumer: string, name: string): string {
  return mkdtempSync(path.join(consumer, `${name}-`));
}
