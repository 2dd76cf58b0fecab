import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The temp dirs this test file made, removed after it (test/setup/temp-cleanup.ts): they had piled
 * up to 50,000 in /tmp. Not at process exit: vitest's fork pool ends a worker without an 'exit'.
 */
const made: string[] = [];

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
}

/** A fresh temp dir (realpath, so symlinked /tmp does not confuse path checks); removed after the file. */
export function tempDir(prefix = "tp-", base = tmpdir()): string {
  const dir = realpathSync(mkdtempSync(path.join(base, prefix)));
  made.push(dir);
  return dir;
}

/** Writes files below `root`, creating folders; returns root. */
export function writeTree(root: string, files: Record<string, string | Buffer>): string {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return root;
}

/**
 * A hermetic project: a git root with HOME and TOOLPLANE_HOME inside the temp dir. Its env turns
 * the example integration on (`tools.examples`, off by default): most fixtures call
 * `ticket_status` as a known third-party tool. `bareEnv` is the same without it, for tests of the
 * defaults themselves. `trust: true` trusts the project (through the environment, as a user's
 * `toolplane trust` would through their file), so its .toolplane/config.json applies in full:
 * tool modules, MCP commands, looser permissions.
 */
export function tempProject(files: Record<string, string | Buffer> = {}, opts: { trust?: boolean } = {}) {
  const root = tempDir("tp-proj-");
  const home = path.join(root, "_home");
  const repo = path.join(root, "repo");
  mkdirSync(path.join(repo, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeTree(repo, files);
  const bareEnv: NodeJS.ProcessEnv = { HOME: home, PATH: process.env.PATH ?? "" };
  if (opts.trust) bareEnv.TOOLPLANE_TRUST_PROJECTS = JSON.stringify([repo]);
  const env: NodeJS.ProcessEnv = { ...bareEnv, TOOLPLANE_TOOLS_EXAMPLES: "true" };
  return { root, repo, home, env, bareEnv };
}
