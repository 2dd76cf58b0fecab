import { existsSync, mkdirSync, rmdirSync } from "node:fs";
import path from "node:path";

/**
 * What the sandbox binds read-only on top of the writable workspace: each protected path under a
 * writable root (.git whole, or only .git/hooks and .git/config when the call's writes there were
 * allowed by a rule that names them; .toolplane; tool modules; the trust record). A protected
 * folder that does not exist yet is made (empty) so it can be bound, and removed after the call
 * if it is still empty: otherwise a command could create `.git/hooks/...` where none was.
 */
export function protectedBinds(o: {
  protectedPaths: readonly string[];
  roots: readonly string[];
  gitWritesAllowed: boolean;
}): { readOnly: string[]; created: string[] } {
  const readOnly: string[] = [];
  const created: string[] = [];
  const under = (p: string) =>
    o.roots.some((r) => {
      const rel = path.relative(r, p);
      return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
    });
  for (const p of o.protectedPaths) {
    if (!under(p)) continue; // outside every writable root: read-only already
    const folder = path.basename(p) === ".git" || path.basename(p) === ".toolplane";
    if (!existsSync(p)) {
      if (!folder) continue;
      try {
        mkdirSync(p);
        created.push(p);
      } catch {
        continue;
      }
    }
    if (path.basename(p) === ".git" && o.gitWritesAllowed) {
      for (const inner of ["hooks", "config"]) {
        const q = path.join(p, inner);
        if (inner === "hooks" && !existsSync(q)) {
          try {
            mkdirSync(q);
            created.push(q);
          } catch {
            continue;
          }
        }
        if (existsSync(q)) readOnly.push(q);
      }
      continue;
    }
    readOnly.push(p);
  }
  return { readOnly, created };
}

/** Removes the folders protectedBinds made, deepest first, where they are still empty. */
export function removeCreated(created: readonly string[]): void {
  for (const p of [...created].reverse()) {
    try {
      rmdirSync(p);
    } catch {
      // something was put there (outside the sandbox) or it is gone: leave it
    }
  }
}
