import path from "node:path";
import type { ToolContext } from "../declare/types.js";
import { PathError, resolvePath } from "../permissions/paths.js";
import { FileToolError } from "./errors.js";

export interface ToolPath {
  /** Real path (symlinks followed as far as they exist): what the tool opens. */
  real: string;
  /** What the model is shown: relative to cwd when inside it, else absolute. */
  shown: string;
}

/**
 * Resolves a path argument and keeps it in the workspace. The permission layer checks the same
 * boundary before the call; checking again here means a tool used without that layer (tests,
 * embedders) still cannot read outside it.
 */
export function workspacePath(
  input: string | undefined,
  ctx: Pick<ToolContext, "cwd" | "workspace">,
): ToolPath {
  let resolved: ReturnType<typeof resolvePath>;
  try {
    resolved = resolvePath(input ?? ".", ctx.cwd, ctx.workspace);
  } catch (err) {
    if (err instanceof PathError) throw new FileToolError(err.message);
    throw err;
  }
  if (!resolved.inside) {
    throw new FileToolError(
      `${input} is outside the workspace ${ctx.workspace}: only files inside it can be read`,
    );
  }
  return { real: resolved.real, shown: showPath(resolved.absolute, ctx.cwd) };
}

export function showPath(absolute: string, cwd: string): string {
  const rel = path.relative(cwd, absolute);
  if (rel === "") return ".";
  return rel.startsWith("..") || path.isAbsolute(rel) ? absolute : rel;
}
