import { createRequire } from "node:module";
import type { Language } from "web-tree-sitter";
import { importModule } from "../../util/import-module.js";
import { copyTree, ParseStopped, parsedShell, type ShellParser } from "./shell-tree.js";

/**
 * tree-sitter-bash on web-tree-sitter: both wasm files ship in their npm packages (no native
 * build, nothing downloaded). The fallback where the native binding does not load.
 */
export async function wasmBashParser(): Promise<ShellParser> {
  // the CLI asks for wasm on Liftoff only (see cli/main.ts); a library user's process is left as
  // it is. "set" tells the CLI that V8's flags changed, so it keeps no code cache from this run.
  const request = Symbol.for("toolplane.wasmLiftoffOnly");
  if ((globalThis as Record<symbol, unknown>)[request] === true) {
    (await importModule<typeof import("node:v8")>("node:v8")).setFlagsFromString("--liftoff-only");
    (globalThis as Record<symbol, unknown>)[request] = "set";
  }
  const { Parser, Language: L } = await importModule<typeof import("web-tree-sitter")>("web-tree-sitter");
  await Parser.init();
  const require = createRequire(import.meta.url);
  const language: Language = await L.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
  const parser = new Parser();
  parser.setLanguage(language);
  return {
    engine: "wasm",
    parse(source, stop) {
      // the wasm tree and cursor live in the module's own memory: freed here, not by the GC
      // (its d.ts types the callback's result void, but a true cancels the parse as in the native one)
      const progressCallback = stop ? (stop as () => void) : undefined;
      const tree = parser.parse(source, null, progressCallback ? { progressCallback } : {});
      if (!tree) throw stop?.() ? new ParseStopped() : new Error("the shell parser returned no tree");
      try {
        const cursor = tree.walk();
        try {
          return parsedShell(source, copyTree(cursor, stop), tree.rootNode.hasError);
        } finally {
          cursor.delete();
        }
      } finally {
        tree.delete();
      }
    },
  };
}
