import { bashParser, requestedEngine } from "../tools/bash/parser.js";
import type { ParserEngine } from "../tools/bash/shell-tree.js";
import { type DoctorCheck, row } from "./types.js";

const NATIVE = "tree-sitter-bash on the native binding (tree-sitter)";
const WASM = "tree-sitter-bash on web-tree-sitter (wasm)";
const REINSTALL =
  "reinstall toolplane's dependencies (npm ci): tree-sitter, tree-sitter-bash and web-tree-sitter";

/**
 * Which runtime parses bash commands here. The bash tool takes the native binding where it loads
 * and the wasm runtime where it does not, silently: the trees are the same
 * (test/tools/bash/parser-engines.test.ts), but the wasm runtime's first parse in a process costs
 * 60-90 ms more, and a harness author had no way to learn which one loaded. Neither loading fails
 * the row: a line the parser must read then fails its call (it is never allowed unread).
 */
export async function bashParserCheck(env: NodeJS.ProcessEnv = process.env): Promise<DoctorCheck> {
  const { engine: asked, ignored: unknown } = requestedEngine(env);
  if (asked !== "auto") {
    const failure = await loadFailure(asked);
    return row(
      "tools",
      "bash-parser",
      failure === undefined
        ? `bash commands are parsed by ${asked === "wasm" ? WASM : NATIVE}, as TOOLPLANE_BASH_PARSER=${asked} asks`
        : `TOOLPLANE_BASH_PARSER=${asked} asks for a parser that does not load: a command the parser must read fails`,
      failure === undefined ? [] : [`${asked}: ${failure}`],
      `${REINSTALL}; or unset TOOLPLANE_BASH_PARSER to take whichever loads`,
    );
  }
  // a value the parser ignores (it takes whichever loads): a typo would go unseen
  const ignored =
    unknown === undefined
      ? []
      : [`TOOLPLANE_BASH_PARSER=${unknown} is neither native nor wasm (nor auto), so it is ignored`];
  const unset = "set TOOLPLANE_BASH_PARSER to native or wasm, or unset it";
  const native = await loadFailure("native");
  if (native === undefined)
    return row("tools", "bash-parser", `bash commands are parsed by ${NATIVE}`, ignored, unset);
  const wasm = await loadFailure("wasm");
  if (wasm === undefined) {
    return row(
      "tools",
      "bash-parser",
      `bash commands are parsed by ${WASM}: the native binding did not load (${native}); the trees are ` +
        "the same, and each process's first parse costs 60-90 ms more (npm rebuild tree-sitter, where a " +
        "C++ toolchain is installed, builds the binding)",
      ignored,
      unset,
    );
  }
  return row(
    "tools",
    "bash-parser",
    "neither bash parser loads: a command the parser must read fails",
    [`native: ${native}`, `wasm: ${wasm}`],
    REINSTALL,
  );
}

/** Why the engine did not load (its error's first line, capped), or undefined when it loads. */
async function loadFailure(engine: ParserEngine): Promise<string | undefined> {
  try {
    await bashParser(engine);
    return undefined;
  } catch (error) {
    const message = String((error as Error)?.message ?? error).split("\n")[0]!;
    return message.length > 300 ? `${message.slice(0, 300)}...` : message;
  }
}
