import { parseScopeChain } from "../assemble/scope.js";
import type { Toolplane } from "../assemble/toolplane.js";

/** `doctor.expect` read as (scope chain, names the model must see there) pairs, in key order. */
export function expectations(plane: Toolplane): Array<{ scope: string; chain: string[]; names: string[] }> {
  const raw = plane.config.get("doctor.expect") as Record<string, string[]>;
  return Object.keys(raw)
    .sort()
    .map((scope) => ({ scope, chain: parseScopeChain(scope), names: [...(raw[scope] ?? [])] }));
}

export function scopeLabel(scope: string): string {
  return scope === "" ? "(no scope)" : `"${scope}"`;
}
