import path from "node:path";
import type { AnyTool, PermissionContext, PermissionNeed } from "../declare/types.js";
import type { PermissionRequest, RequestPath } from "./evaluate.js";
import { isInside, PathError, type ResolvedPath, resolvePath } from "./paths.js";

export interface RequestEnv {
  cwd: string;
  workspace: string;
  /** Directories treated as inside the boundary besides the workspace (added dirs, the spill store). */
  extraRoots: readonly string[];
}

/**
 * Gathers what a decision needs from a tool and its validated arguments: the declared action, its
 * patterns and its paths, each path resolved (`..`, symlinks, NFC, case) before any rule sees it.
 * This is the impure half (it touches the filesystem); evaluatePermission is the pure half.
 */
export function buildPermissionRequest(
  tool: AnyTool,
  namespace: string,
  args: unknown,
  env: RequestEnv,
): PermissionRequest {
  const declared = tool.host.permission;
  const patterns = declared?.patterns ? declared.patterns(args) : [];
  const paths = declared?.paths ? declared.paths(args) : [];
  const request: PermissionRequest = {
    tool: tool.name,
    namespace,
    patterns: patterns.map(String),
    paths: paths.map((p) => resolveRequestPath(p, env)),
    args,
  };
  if (declared?.action !== undefined) request.action = declared.action;
  return request;
}

/**
 * Every permission request a call needs: one per declared need (a shell command's commands and
 * writes), or the single request of a tool that declares action/patterns/paths.
 */
export async function buildPermissionRequests(
  tool: AnyTool,
  namespace: string,
  args: unknown,
  env: RequestEnv & Pick<PermissionContext, "config" | "session">,
): Promise<PermissionRequest[]> {
  const declared = tool.host.permission;
  if (declared?.needs === undefined) return [buildPermissionRequest(tool, namespace, args, env)];
  const ctx: PermissionContext = { cwd: env.cwd, workspace: env.workspace, config: env.config };
  if (env.session) ctx.session = env.session;
  const needs = await declared.needs(args, ctx);
  return needs.map((need) => requestOfNeed(tool.name, namespace, args, need, env));
}

function requestOfNeed(
  tool: string,
  namespace: string,
  args: unknown,
  need: PermissionNeed,
  env: RequestEnv,
): PermissionRequest {
  const base = need.cwd ?? env.cwd;
  const request: PermissionRequest = {
    tool,
    namespace,
    action: need.action,
    patterns: (need.patterns ?? []).map(String),
    paths: (need.paths ?? []).map((p) => {
      const spec = typeof p === "string" ? { path: p } : p;
      const resolved = resolveRequestPath(spec.path, { ...env, cwd: base });
      return spec.subtree ? { ...resolved, subtree: true } : resolved;
    }),
    args,
  };
  if (need.floor) request.floor = { ...need.floor };
  if (need.knownSafe !== undefined) request.knownSafe = need.knownSafe;
  return request;
}

export function resolveRequestPath(input: string, env: RequestEnv): RequestPath {
  return requestPathResolver(env)(input);
}

/**
 * resolveRequestPath for many paths under one env: the workspace and the added roots are
 * resolved once, so each path costs one realpath (a search checks every file it would show).
 * A path marked `real` (reported by a walk that follows no symlink, under a real folder) skips
 * even that: it is its own real path.
 */
export function requestPathResolver(
  env: RequestEnv,
): (input: string, options?: { real?: boolean }) => RequestPath {
  let roots: { workspace: string; extra: string[] } | undefined;
  let lexicalWorkspace: string | undefined;
  return (input, options = {}) => {
    try {
      roots ??= {
        workspace: resolvePath(env.workspace, env.workspace, env.workspace).real,
        extra: env.extraRoots.map((extra) => resolvePath(extra, env.cwd, extra).real),
      };
      let resolved: ResolvedPath;
      if (options.real && input !== "" && !input.includes("\0")) {
        // a walk reports normal absolute paths: path.resolve would only copy them
        const absolute = isNormalAbsolute(input) ? input : path.resolve(env.cwd, input);
        resolved = { absolute, real: absolute, inside: isInside(absolute, roots.workspace) };
      } else {
        resolved = resolvePath(input, env.cwd, env.workspace, roots.workspace);
      }
      const inside = resolved.inside || roots.extra.some((extra) => isInside(resolved.real, extra));
      const out: RequestPath = { input, lexical: resolved.absolute, real: resolved.real, inside };
      if (resolved.inside) out.relative = toPosix(relativeTo(roots.workspace, resolved.real));
      lexicalWorkspace ??= path.resolve(env.workspace);
      const lexicalRel = relativeTo(lexicalWorkspace, resolved.absolute);
      if (!lexicalRel.startsWith("..") && !path.isAbsolute(lexicalRel))
        out.lexicalRelative = toPosix(lexicalRel);
      return out;
    } catch (error) {
      if (!(error instanceof PathError)) throw error;
      const shown = String(input);
      return { input: shown, lexical: shown, real: shown, inside: false, problem: error.message };
    }
  };
}

/** Absolute, with no "." or ".." segment, no empty segment and no trailing separator. */
function isNormalAbsolute(p: string): boolean {
  return (
    path.isAbsolute(p) &&
    p.length > 1 &&
    !p.endsWith(path.sep) &&
    !p.includes(`${path.sep}${path.sep}`) &&
    !/(^|[\\/])\.\.?([\\/]|$)/.test(p) &&
    (path.sep === "/" || !p.includes("/"))
  );
}

function toPosix(p: string): string {
  return path.sep === "/" ? p : p.split(path.sep).join("/");
}

/**
 * path.relative(root, p) for two resolved absolute paths; the common case (p below root) by a
 * slice, since a search resolves thousands of them (path.relative normalises both again).
 */
function relativeTo(root: string, p: string): string {
  if (
    p.length > root.length + 1 &&
    p.startsWith(root) &&
    p[root.length] === path.sep &&
    !root.endsWith(path.sep)
  )
    return p.slice(root.length + 1);
  return path.relative(root, p);
}
