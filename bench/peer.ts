import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Figure } from "./lib.js";

/**
 * DeepSeek Harness's published tools, run side by side when they are already installed by
 * /work/shared/peers/deepseek-harness/install.sh (in $TOOLPLANE_PEERS, default
 * /tmp/toolplane-peers). The bench never installs them: it must run offline, and their code never
 * enters this project.
 */
function peerDir(): string | undefined {
  const dir = path.join(process.env.TOOLPLANE_PEERS ?? "/tmp/toolplane-peers", "deepseek-harness");
  return existsSync(path.join(dir, "node_modules", "@deepseek-ai", "dsh-tool-fs")) &&
    existsSync(path.join(dir, "bench", "read.mjs"))
    ? dir
    : undefined;
}

function runPeer(
  dir: string,
  script: string,
  args: string[],
): { medianMs?: number; peakRssMB?: number; isError?: boolean } | undefined {
  const r = spawnSync(process.execPath, ["--import", "./bench/polyfill.mjs", `bench/${script}`, ...args], {
    cwd: dir,
    encoding: "utf8",
    timeout: 300_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = r.stdout?.trim().split("\n").at(-1);
  if (r.status !== 0 || !line?.startsWith("{")) return undefined;
  return JSON.parse(line);
}

export function peerRead(big: string, small: string, deepOffset: number): Figure[] {
  const dir = peerDir();
  if (dir === undefined) return [];
  const out: Figure[] = [];
  const cases: [string, string, string][] = [
    ["DeepSeek Harness: first page, 1 MiB", small, "1"],
    ["DeepSeek Harness: first page, 1 GiB", big, "1"],
    ["DeepSeek Harness: page at 90% depth, 1 GiB", big, String(deepOffset)],
  ];
  for (const [name, file, offset] of cases) {
    const r = runPeer(dir, "read.mjs", [file, offset, "3", "1"]);
    if (r?.medianMs !== undefined)
      out.push({ name, value: r.medianMs, unit: "ms", note: `peak RSS ${r.peakRssMB} MB` });
  }
  return out;
}

export function peerGrep(tree: string, pattern: string): Figure[] {
  const dir = peerDir();
  if (dir === undefined) return [];
  const r = runPeer(dir, "grep.mjs", [tree, pattern, "dsh", "3"]);
  if (r?.medianMs === undefined) return [];
  const note = `${r.isError ? "failed, " : ""}peak RSS ${r.peakRssMB} MB`;
  return [{ name: `DeepSeek Harness: grep ${JSON.stringify(pattern)}`, value: r.medianMs, unit: "ms", note }];
}
