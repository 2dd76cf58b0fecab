import type { AnyTool } from "../declare/types.js";
import type { Provider } from "../register/types.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { readTool } from "./read.js";

export { glob, globTool } from "./glob.js";
export { grep, grepTool } from "./grep.js";
export { readPath, readTool } from "./read.js";

/** The built-in file tools, registered in the global layer as provider `builtin`. */
export function builtinFileTools(): AnyTool[] {
  return [readTool(), grepTool(), globTool()];
}

export function builtinProvider(extra: readonly AnyTool[] = []): Provider<AnyTool> {
  const tools = [...builtinFileTools(), ...extra];
  return { name: "builtin", rank: 0, enumerate: () => tools };
}
