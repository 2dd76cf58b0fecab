import path from "node:path";

/**
 * The paths whose contents run code outside the sandbox later: a planted `.git/hooks/*` or
 * `core.fsmonitor` runs at the next `git`; a changed `.toolplane/config.json`, trust record or tool
 * module runs at the next start of toolplane; a hook's script at the next call. A write there asks unless a rule allows that path by
 * name, and the sandbox keeps them read-only (docs/bash.md).
 */
export function protectedPathsOf(o: {
  projectRoot: string;
  /** $TOOLPLANE_HOME: its config.json is the trust record. */
  home: string;
  /** tools.modules, as configured (paths from the project root). */
  modules: ReadonlyArray<string | { path: string }>;
  /** The programs and scripts the configured hooks run (absolute): they run outside the sandbox too. */
  hookFiles?: readonly string[];
}): string[] {
  const out = [
    path.join(o.projectRoot, ".git"),
    path.join(o.projectRoot, ".toolplane"),
    path.join(o.home, "config.json"),
  ];
  for (const m of o.modules) out.push(path.resolve(o.projectRoot, typeof m === "string" ? m : m.path));
  out.push(...(o.hookFiles ?? []));
  return [...new Set(out)];
}

/** Why a write to this path needs a rule that names it, or undefined. Pure: paths only. */
export function protectedReason(
  p: { real: string; lexical: string; subtree?: boolean },
  protectedPaths: readonly string[],
): string | undefined {
  for (const guarded of protectedPaths) {
    const hit =
      within(p.real, guarded) ||
      within(p.lexical, guarded) ||
      (p.subtree === true && within(guarded, p.real));
    if (hit)
      return `${guarded} is protected: what is written there runs outside the sandbox later (a rule that allows this path by name can permit it)`;
  }
  return undefined;
}

/** `candidate` is `root` or below it (lexically: both already resolved). */
export function within(candidate: string, root: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
