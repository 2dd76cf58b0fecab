import { createRequire } from "node:module";
import { copyTree, parsedShell, type ShellCursor, type ShellParser } from "./shell-tree.js";

/**
 * The part of tree-sitter's Parser this file uses, written here rather than imported: tree-sitter
 * is an optional dependency (its install may compile and fail), and the build must not need it.
 */
interface NativeParser {
  setLanguage(language: unknown): void;
  parse(source: string): { walk(): ShellCursor; rootNode: { hasError: boolean } };
}

/**
 * tree-sitter-bash on the native binding: `tree-sitter` (an optional dependency) and
 * tree-sitter-bash both ship prebuilt N-API binaries for linux, macOS and Windows on x64 and
 * arm64, loaded by node-gyp-build from the package (or, where tree-sitter's binary needs a newer
 * libstdc++ than the system's, the one its install compiled). Throws where either does not load;
 * bashParser() then takes the wasm runtime.
 */
export async function nativeBashParser(): Promise<ShellParser> {
  const require = createRequire(import.meta.url);
  const Parser = require("tree-sitter") as new () => NativeParser;
  const bash = require("tree-sitter-bash") as { language: unknown };
  const parser = new Parser();
  // A fresh object holding the grammar's handle: given the package's own, setLanguage would make
  // a class for each of its ~150 node types (5 ms of a first call; the copy reads no node objects)
  // and keep them on an object a library user of tree-sitter-bash shares.
  parser.setLanguage({ language: bash.language });
  return {
    engine: "native",
    parse(source) {
      const tree = parser.parse(source);
      return parsedShell(source, copyTree(tree.walk()), tree.rootNode.hasError);
    },
  };
}
