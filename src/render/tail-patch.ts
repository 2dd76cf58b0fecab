// The native deferral tail of a re-render whose deferred tools changed in place: only those are
// rendered again. With deferral on and a provider's own tool search, thousands of deferred tools
// are sent in full; one of them changed re-rendered them all before.

import { adapterFor } from "./adapters.js";
import { type RenderInput, renderOne, type State, type Tail } from "./catalog.js";
import type { BudgetCut, NativeDeferral } from "./types.js";

/** The same search tool and headers around the deferred tools (their list aside). */
export function sameNativeFrame(a: NativeDeferral, b: NativeDeferral): boolean {
  return (
    JSON.stringify(a.searchTool) === JSON.stringify(b.searchTool) &&
    JSON.stringify(a.headers ?? {}) === JSON.stringify(b.headers ?? {})
  );
}

/**
 * The last tail with the deferred tools that changed at their places (same names) rendered
 * again, or undefined when the native part changed otherwise (then the render is done in full).
 * The tail is outside the budget and `prefixHash`: only its wire forms, cuts and notes move.
 */
export function patchTail(prev: State, input: RenderInput, maxChanged: number): Tail | undefined {
  const was = prev.input.native;
  const now = input.native;
  if (!was || !now || was.tools.length !== now.tools.length || !sameNativeFrame(was, now)) return undefined;
  const changed: number[] = [];
  for (let i = 0; i < now.tools.length; i++) {
    if (now.tools[i] === was.tools[i]) continue;
    if (now.tools[i]!.name !== was.tools[i]!.name || changed.length >= maxChanged) return undefined;
    changed.push(i);
  }
  const tail = prev.tail;
  const memo = input.memo!;
  const adapter = adapterFor(input.provider);
  // render every changed tool before building the new tail, so a throw leaves the state as it was
  const rendered = changed.map((i) =>
    renderOne(memo, adapter, now.tools[i]!, tail.names[i]!, prev.maxChars, prev.maxChars),
  );
  const wires = tail.wires.slice();
  const cutAt = tail.cutAt.slice();
  let notes = tail.notes;
  changed.forEach((i, k) => {
    const one = rendered[k]!;
    // wires[0] is the provider's search tool
    wires[i + 1] = memo.deferLoading(one.memo);
    cutAt[i] = one.cut;
    if (notes[i] !== one.notes) {
      if (notes === tail.notes) notes = notes.slice();
      notes[i] = one.notes;
    }
  });
  const cuts = cutAt.filter((c): c is BudgetCut => c !== undefined);
  return { ...tail, tools: [...now.tools], wires, cuts, notes, cutAt };
}
