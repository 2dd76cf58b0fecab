import { createRequire } from "node:module";

let loaded: typeof import("node:child_process") | undefined;

/**
 * node:child_process, loaded on first use: the modules that spawn (ripgrep, bash, bwrap) are part
 * of every command's bundle, and loading the builtin (with the stream and net machinery it pulls
 * in) costs ~10 ms of a cold start that most commands (`catalog`) never spend on a child.
 */
export function childProcess(): typeof import("node:child_process") {
  loaded ??= createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
  return loaded;
}
