import { nativeBashParser } from "./parser-native.js";
import { wasmBashParser } from "./parser-wasm.js";
import type { ParserEngine, ShellParser } from "./shell-tree.js";

export type { ParsedShell, ParserEngine, ShellNode, ShellParser } from "./shell-tree.js";

const loading = new Map<ParserEngine | "auto", Promise<ShellParser>>();

/**
 * The bash parser, loaded on first use only: a session that never runs a command never pays for
 * it. "auto" takes the native binding when it loads (its first parse costs ~15 ms in a new
 * process; the wasm runtime's ~90 ms, most of it V8 compiling the grammar's 1.3 MB module), and
 * the wasm one where it does not (no binary that loads on this system, or the optional dependency
 * left out). `TOOLPLANE_BASH_PARSER=wasm` asks for the wasm one.
 */
export function bashParser(engine: ParserEngine | "auto" = defaultEngine()): Promise<ShellParser> {
  let parser = loading.get(engine);
  if (parser === undefined) {
    parser =
      engine === "native"
        ? nativeBashParser()
        : engine === "wasm"
          ? wasmBashParser()
          : bashParser("native").catch(() => bashParser("wasm"));
    loading.set(engine, parser);
    // a failed load may be tried again
    parser.catch(() => loading.delete(engine));
  }
  return parser;
}

function defaultEngine(): ParserEngine | "auto" {
  return requestedEngine().engine;
}

/**
 * The runtime `TOOLPLANE_BASH_PARSER` asks for; `ignored` holds a value the parser does not know
 * (it takes "auto" then), which doctor reports.
 */
export function requestedEngine(env: NodeJS.ProcessEnv = process.env): {
  engine: ParserEngine | "auto";
  ignored?: string;
} {
  const asked = env.TOOLPLANE_BASH_PARSER;
  if (asked === "wasm" || asked === "native" || asked === "auto") return { engine: asked };
  return asked === undefined || asked === "" ? { engine: "auto" } : { engine: "auto", ignored: asked };
}
