import type { AnyTool } from "../declare/types.js";
import { TOOL_SEARCH_NAME } from "../defer/index.js";
import { deniedOutright, type SourcedRule } from "../permissions/index.js";
import { type Resolved, type Snapshot, snapshotPatch } from "../register/index.js";

/** A tool the model may see here, with the namespace and the provider it was registered under. */
export interface VisibleTool {
  tool: AnyTool;
  namespace: string;
  /** The registry provider's name (`builtin`, `mcp:github`, `module:tools.js`, ...). */
  provider: string;
}

/** The permission namespace of tools toolplane itself adds to a session (tool_search). */
export const SESSION_NAMESPACE = "toolplane";

/** What a model may see and call is decided by these two facts besides the registry. */
export interface VisibilityRules {
  /** Permission rules; a tool denied outright leaves the catalog. */
  rules: readonly SourcedRule[];
  /** `tools.disabled`. */
  disabled: readonly string[];
}

/** The namespace permissions see: the tool's own, else the one its provider registered it under. */
export function namespaceOf(e: Resolved<AnyTool>): string {
  return e.entry.host.namespace ?? e.namespace;
}

/** Why a tool is kept from the model and from calls here: disabled, denied outright, or reserved. */
export function withheldReason(name: string, namespace: string, v: VisibilityRules): string | undefined {
  if (name === TOOL_SEARCH_NAME && namespace !== SESSION_NAMESPACE)
    return "its name is reserved for toolplane's tool search";
  if (v.disabled.includes(name)) return "it is disabled (tools.disabled)";
  const denied = deniedOutright({ name, namespace }, v.rules);
  return denied ? `it is denied by ${denied.origin}` : undefined;
}

/** Why tool_search may not be used here (then nothing is deferred), or undefined. */
export function searchWithheld(v: VisibilityRules): string | undefined {
  return withheldReason(TOOL_SEARCH_NAME, SESSION_NAMESPACE, v);
}

/** One registry record here: the tool as the model may see it, or why it is withheld. */
function outcomeOf(e: Resolved<AnyTool>, v: VisibilityRules): VisibleTool | string {
  const namespace = namespaceOf(e);
  return withheldReason(e.name, namespace, v) ?? { tool: e.entry, namespace, provider: e.provider };
}

/** The snapshot's tools split into those the model may see (snapshot order) and those withheld, with why. */
export function partitionTools(
  snapshot: Snapshot<AnyTool>,
  v: VisibilityRules,
): { visible: VisibleTool[]; withheld: Array<{ name: string; reason: string }> } {
  const visible: VisibleTool[] = [];
  const withheld: Array<{ name: string; reason: string }> = [];
  for (const e of snapshot.entries) {
    const out = outcomeOf(e, v);
    if (typeof out === "string") withheld.push({ name: e.name, reason: out });
    else visible.push(out);
  }
  return { visible, withheld };
}

/**
 * The snapshot's tools the model may see (partitionTools' visible part), remembering each
 * registry record's outcome while the rules and the disabled list are the same arrays (both are
 * kept per configuration): a snapshot after one provider changed one entry shares every other
 * record with the last (register/merge.ts), so only that one is decided again, and an unchanged
 * tool keeps its VisibleTool (what the deferral planner compares). A snapshot patched from the
 * last one is not walked at all: its swapped records are decided and swapped in the last list.
 */
export class VisibilityMemo {
  private rules: VisibilityRules["rules"] | undefined;
  private disabled: VisibilityRules["disabled"] | undefined;
  private memo = new WeakMap<Resolved<AnyTool>, VisibleTool | string>();
  /** The last snapshot read and its visible tools, which a snapshot patched from it starts from. */
  private last: { snapshot: Snapshot<AnyTool>; visible: VisibleTool[] } | undefined;

  visible(snapshot: Snapshot<AnyTool>, v: VisibilityRules): VisibleTool[] {
    if (v.rules !== this.rules || v.disabled !== this.disabled) {
      this.memo = new WeakMap();
      this.last = undefined;
      this.rules = v.rules;
      this.disabled = v.disabled;
    }
    const out = this.patched(snapshot, v) ?? this.walk(snapshot, v);
    this.last = { snapshot, visible: out };
    return out;
  }

  /**
   * A snapshot that swapped a few records of the last one (register/merge-patch.ts): the last
   * visible list with those swapped, while each keeps its side (visible or withheld).
   */
  private patched(snapshot: Snapshot<AnyTool>, v: VisibilityRules): VisibleTool[] | undefined {
    const patch = snapshotPatch(snapshot);
    const last = this.last;
    if (!patch || !last || patch.base !== last.snapshot) return undefined;
    let out: VisibleTool[] | undefined;
    for (const [old, now] of patch.replaced) {
      const was = this.outcome(old, v);
      const is = this.outcome(now, v);
      if (typeof was === "string" && typeof is === "string") continue;
      if (typeof was === "string" || typeof is === "string") return undefined; // the list itself changes
      out ??= last.visible.slice();
      const at = out.indexOf(was);
      if (at < 0) return undefined;
      out[at] = is;
    }
    return out ?? last.visible;
  }

  private outcome(e: Resolved<AnyTool>, v: VisibilityRules): VisibleTool | string {
    let hit = this.memo.get(e);
    if (hit === undefined) {
      hit = outcomeOf(e, v);
      this.memo.set(e, hit);
    }
    return hit;
  }

  private walk(snapshot: Snapshot<AnyTool>, v: VisibilityRules): VisibleTool[] {
    const out: VisibleTool[] = [];
    for (const e of snapshot.entries) {
      const hit = this.outcome(e, v);
      if (typeof hit !== "string") out.push(hit);
    }
    return out;
  }
}
