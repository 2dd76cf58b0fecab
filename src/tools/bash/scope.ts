/** The shell's state while a command line is walked, and how branches join (see subset.ts). */

/** The shell's state as far as it is known: where it is, and the values of its variables. */
export interface Scope {
  /** Relative to where the line starts ("." first), absolute, or undefined when unknown. */
  cwd: string | undefined;
  /** A variable's value; null when it was set to something only the run knows. */
  vars: Map<string, string | null>;
}

/** After a statement: the state when it succeeded, and the state whichever way it ended. */
export interface Outcome {
  ok: Scope;
  any: Scope;
}

/** What earlier commands of the line may have done to the files (shared by every subshell). */
export interface LineState {
  /** Something may have changed the files: globs and `cd` checks made now may not hold then. */
  dirty: boolean;
  /** Something may have made a symlink: a path checked now may lead elsewhere then. */
  linked: boolean;
}

/** Writers that cannot leave a symlink behind (the rest, and any program we do not model, may). */
export const NO_LINKS = new Set([
  "redirection",
  "mkdir",
  "touch",
  "tee",
  "rm",
  "rmdir",
  "unlink",
  "truncate",
  "chmod",
  "chown",
  "chgrp",
  "sed",
  "sort",
  "dd",
  "mktemp",
  "shred",
  "curl",
  "wget",
]);

export function copy(scope: Scope): Scope {
  return { cwd: scope.cwd, vars: new Map(scope.vars) };
}

export function unknownCwd(scope: Scope): Outcome {
  const s = { cwd: undefined, vars: new Map([...scope.vars].map(([k]) => [k, null] as [string, null])) };
  return { ok: s, any: s };
}

/** The state that holds whichever of these ran: what they agree on, the rest unknown. */
export function merge(...scopes: Scope[]): Scope {
  const [first, ...rest] = scopes;
  const out = copy(first!);
  for (const s of rest) {
    if (out.cwd !== s.cwd) out.cwd = undefined;
    for (const k of new Set([...out.vars.keys(), ...s.vars.keys()])) {
      if (out.vars.get(k) !== s.vars.get(k)) out.vars.set(k, null);
    }
  }
  return out;
}

/** A path relative to where the line starts, or absolute; `..` is kept (a symlink before it is followed first). */
export function resolveFrom(value: string, cwd: string | undefined): string | undefined {
  if (value.startsWith("/")) return value;
  if (cwd === undefined) return undefined;
  if (value === "." || value === "") return cwd;
  return cwd === "." ? value : `${cwd}/${value}`;
}
