import { statSync } from "node:fs";
import type { ToolContext } from "../../declare/types.js";
import { isInside, realpathOfLongestPrefix } from "../../permissions/paths.js";

const CWD_KEY = "bash.cwd";

/**
 * The shell's working directory for this session: where the last command left it, as long as
 * that is still a folder inside the workspace; else the session's own directory.
 */
export function shellCwd(ctx: Pick<ToolContext, "cwd" | "workspace" | "session">): string {
  const kept = ctx.session?.values.get(CWD_KEY);
  if (typeof kept === "string" && insideWorkspace(kept, ctx.workspace)) return kept;
  return ctx.cwd;
}

export function insideWorkspace(dir: string, workspace: string): boolean {
  try {
    if (!statSync(dir).isDirectory()) return false;
  } catch {
    return false;
  }
  return isInside(realpathOfLongestPrefix(dir), realpathOfLongestPrefix(workspace));
}

/** Keeps the directory a command ended in, if it is inside the workspace; says whether it was kept. */
export function keepShellCwd(ctx: Pick<ToolContext, "workspace" | "session">, dir: string): boolean {
  if (!insideWorkspace(dir, ctx.workspace)) return false;
  ctx.session?.values.set(CWD_KEY, dir);
  return true;
}

export function resetShellCwd(ctx: Pick<ToolContext, "session">): void {
  ctx.session?.values.delete(CWD_KEY);
}
