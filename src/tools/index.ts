import type { AnyTool } from "../declare/types.js";
import type { Provider } from "../register/types.js";
import type { ProgressFactory } from "../util/progress.js";
import { bashTool } from "./bash/tool.js";
import { editTool } from "./edit/edit.js";
import { writeTool } from "./edit/write.js";
import { globTool } from "./glob/tool.js";
import { grepTool } from "./grep/tool.js";
import { readTool } from "./read/tool.js";

export { bashTool, runBash } from "./bash/tool.js";
export { editFile, editTool } from "./edit/edit.js";
export { writeFile, writeTool } from "./edit/write.js";
export { glob, globTool } from "./glob/tool.js";
export { grep, grepTool } from "./grep/tool.js";
export { readPath, readTool } from "./read/tool.js";
export { sandboxSupport } from "./sandbox/bwrap.js";

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
