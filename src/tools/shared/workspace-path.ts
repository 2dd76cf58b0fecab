import path from "node:path";
import type { ToolContext } from "../../declare/types.js";
import { isInside, PathError, realpathOfLongestPrefix, resolvePath } from "../../permissions/paths.js";
import { FileToolError } from "./errors.js";

export interface ToolPath {
  /** Real path (symlinks followed as far as they exist): what the tool opens. */
  real: string;
  /** What the model is shown: relative to cwd when inside it, else absolute. */
  shown: string;
}

export type PathContext = Pick<ToolContext, "cwd" | "workspace"> & Pick<Partial<ToolContext>, "paths">;

/**
 * Resolves a path argument and keeps it inside the boundary: the workspace, plus the folders the
 * host adds (permissions.additionalDirectories, the session's spill directory), or anywhere when
 * the host says permissions.workspaceBoundary is off. The permission layer checks the same
 * boundary before the call; checking again here means a tool used without that layer (tests,
 * embedders) still cannot read outside the workspace.
 */
export function workspacePath(input: string | undefined, ctx: PathContext): ToolPath {
  let resolved: ReturnType<typeof resolvePath>;
  try {
    resolved = resolvePath(input ?? ".", ctx.cwd, ctx.workspace);
  } catch (err) {
    if (err instanceof PathError) throw new FileToolError(err.message);
    throw err;
  }
  if (!resolved.inside && !insideBoundary(resolved.real, ctx)) {
    const extra = (ctx.paths?.roots.length ?? 0) > 0 ? " and permissions.additionalDirectories" : "";
    throw new FileToolError(
      `${input} is outside the workspace ${ctx.workspace}${extra}: only files inside it can be read`,
    );
  }
  return { real: resolved.real, shown: showPath(resolved.absolute, ctx.cwd) };
}

/** Whether a real path is inside the boundary the context draws (see workspacePath). */
export function insideBoundary(real: string, ctx: PathContext): boolean {
  if (ctx.paths && !ctx.paths.boundary) return true;
  let roots = boundaryRoots.get(ctx);
  if (roots === undefined) {
    // resolved once per context: a search checks every file it opens against them
    roots = [ctx.workspace, ...(ctx.paths?.roots ?? [])].map((r) => realpathOfLongestPrefix(path.resolve(r)));
    boundaryRoots.set(ctx, roots);
  }
  return roots.some((root) => isInside(real, root));
}

const boundaryRoots = new WeakMap<PathContext, string[]>();

export function showPath(absolute: string, cwd: string): string {
  const rel = path.relative(cwd, absolute);
  if (rel === "") return ".";
  return rel.startsWith("..") || path.isAbsolute(rel) ? absolute : rel;
}
