#!/usr/bin/env node
import { VERSION } from "./version.js";

let saveCodeCache = () => {};

// When run() settles, the command is over (serve and --watch wait for their own end). A tool may
// still hold a timer or socket it never closed (one that ignored its abort signal, say); a
// one-shot CLI must not hang on it after printing, so the process ends once output is flushed.
function exit(code: number): void {
  process.exitCode = code;
  saveCodeCache();
  let pending = 2;
  const flushed = () => {
    pending -= 1;
    if (pending === 0) process.exit(code);
  };
  process.stdout.write("", flushed);
  process.stderr.write("", flushed);
}

// `--version` alone is answered before the CLI parser loads: a harness probing for toolplane pays
// only for Node's own start (the answer is commander's, see program.ts)
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  // nothing else is open: the process ends by itself once the line is out
  process.stdout.write(`${VERSION}\n`);
} else {
  // The bash tool's parser is a large wasm module (tree-sitter-bash). With V8's default tiering
  // its largest function is recompiled by TurboFan on a background thread, and on a loaded
  // 2-core machine the first bash call waited for that (up to 1.9 s, bench/bash.ts); Liftoff alone
  // parses a command line in well under a millisecond. The flag holds for the whole process, so
  // only the CLI, whose process this is, sets it (a library user's process keeps V8's defaults).
  // Liftoff compiles every MVP instruction on x64 and arm64, which is all tree-sitter-bash uses.
  // The parser sets the flag when it loads (tools/bash/parser.ts), so a command that runs no bash
  // does not load node:v8 for it.
  const liftoff = Symbol.for("toolplane.wasmLiftoffOnly");
  (globalThis as Record<symbol, unknown>)[liftoff] = true;
  // Ctrl-C or SIGTERM ends a one-shot command through process.exit, so the exit hook stops the MCP
  // servers it started. serve, inspect and --watch listen themselves (registered after this one,
  // so while they listen this handler leaves the signal to them).
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.on(signal, () => {
      if (process.listenerCount(signal) === 1) exit(code);
    });
  }
  // start.ts is bundled into this file as a module run on first import, so that --version loads
  // none of what it imports
  import("./start.js")
    .then(({ loadCore }) => {
      const loaded = loadCore(args[0]);
      saveCodeCache = () => {
        saveCodeCache = () => {};
        // V8 writes its flags into a cache and refuses one made under other flags: a cache made
        // after the parser set --liftoff-only would be refused, and made again, by every later run
        if ((globalThis as Record<symbol, unknown>)[liftoff] !== "set") loaded.save();
      };
      return loaded.exports.cli().run(process.argv);
    })
    .then(exit, (error) => {
      process.stderr.write(`toolplane: ${error instanceof Error ? error.message : String(error)}\n`);
      exit(1);
    });
}
