import type { AnyTool } from "../declare/types.js";
import type { Provider } from "../register/types.js";
import type { ProgressFactory } from "../util/progress.js";
import { bashTool } from "./bash.js";
import { editTool } from "./edit.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { readTool } from "./read.js";
import { writeTool } from "./write.js";

export { bashTool, runBash } from "./bash.js";
export { editFile, editTool } from "./edit.js";
export { glob, globTool } from "./glob.js";
export { grep, grepTool } from "./grep.js";
export { readPath, readTool } from "./read.js";
export { sandboxSupport } from "./sandbox/bwrap.js";
export { writeFile, writeTool } from "./write.js";

export interface BuiltinOptions {
  /** Progress of long searches, for people (a CLI passes one that draws on a terminal only). */
  progress?: ProgressFactory;
}

/** The built-in coding tools, registered in the global layer as provider `builtin`. */
export function builtinFileTools(options: BuiltinOptions = {}): AnyTool[] {
  return [readTool(), grepTool(options), globTool(), editTool(), writeTool(), bashTool()];
}

export function builtinProvider(
  extra: readonly AnyTool[] = [],
  options: BuiltinOptions = {},
): Provider<AnyTool> {
  const tools = [...builtinFileTools(options), ...extra];
  return { name: "builtin", rank: 0, enumerate: () => tools };
}
