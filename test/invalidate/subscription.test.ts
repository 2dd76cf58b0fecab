import { describe, expect, it } from "vitest";
import { mergeSources, nextInvalidation, subscribe } from "../../src/invalidate/index.js";
import { GLOBAL_LAYER, Registry } from "../../src/register/index.js";
import { renderCatalog } from "../../src/render/index.js";

type E = { name: string; description: string };

function setup() {
  const registry = new Registry<E>();
  let list: E[] = [{ name: "a", description: "first" }];
  const handle = registry.register(GLOBAL_LAYER, { name: "p", enumerate: () => list });
  registry.register("session-1", {
    name: "s",
    enumerate: () => [{ name: "only_in_session", description: "s" }],
  });
  return {
    registry,
    handle,
    set(next: E[]) {
      list = next;
      handle.changed();
    },
  };
}

describe("subscribe: consumers re-fetch with their own options", () => {
  it("re-reads on each invalidation, with its own chain, and sees deletions", async () => {
    const { registry, set } = setup();
    const seen: string[][] = [];
    const sub = subscribe(
      registry,
      async () => (await registry.snapshot(["session-1"])).entries.map((e) => e.name),
      {
        onValue: (v) => seen.push(v),
      },
    );
    await sub.settled();
    expect(sub.current()).toEqual(["a", "only_in_session"]);
    set([{ name: "b", description: "second" }]);
    await sub.settled();
    expect(sub.current()).toEqual(["b", "only_in_session"]);
    set([]);
    await sub.settled();
    expect(seen).toEqual([["a", "only_in_session"], ["b", "only_in_session"], ["only_in_session"]]);
    sub.close();
  });

  it("a burst of invalidations causes one re-read, and the last change is never missed", async () => {
    const { registry, set } = setup();
    let reads = 0;
    const sub = subscribe(
      registry,
      async () => {
        reads++;
        return (await registry.snapshot()).entries.map((e) => e.name);
      },
      { onValue: () => {}, debounceMs: 20, immediate: false },
    );
    for (let i = 0; i < 10; i++) set([{ name: `v${i}`, description: "" }]);
    await sub.settled();
    expect(reads).toBe(1);
    expect(sub.current()).toEqual(["v9"]);
    sub.close();
  });

  it("an invalidation during a read triggers one more read after it", async () => {
    const { registry, set } = setup();
    let release: () => void = () => {};
    let reads = 0;
    const values: string[][] = [];
    const sub = subscribe(
      registry,
      async () => {
        reads++;
        const names = (await registry.snapshot()).entries.map((e) => e.name);
        if (reads === 1) await new Promise<void>((r) => (release = r));
        return names;
      },
      { onValue: (v) => values.push(v) },
    );
    await new Promise((r) => setTimeout(r, 5));
    set([{ name: "newer", description: "" }]);
    await new Promise((r) => setTimeout(r, 5));
    release();
    await sub.settled();
    expect(values).toEqual([["a"], ["newer"]]);
    sub.close();
  });

  it("a failed read keeps the last value, reports the error, and the next invalidation retries", async () => {
    const { registry, handle } = setup();
    let fail = false;
    const errors: unknown[] = [];
    const sub = subscribe(
      registry,
      async () => {
        if (fail) throw new Error("boom");
        return (await registry.snapshot()).entries.length;
      },
      { onValue: () => {}, onError: (e) => errors.push(e) },
    );
    await sub.settled();
    fail = true;
    handle.changed();
    await sub.settled();
    expect(sub.current()).toBe(1);
    expect(String(errors[0])).toBe("Error: boom");
    fail = false;
    handle.changed();
    await sub.settled();
    expect(errors).toHaveLength(1);
    sub.close();
  });

  it("after close nothing more is read", async () => {
    const { registry, set } = setup();
    let reads = 0;
    const sub = subscribe(registry, () => ++reads, { onValue: () => {} });
    await sub.settled();
    sub.close();
    set([]);
    await new Promise((r) => setTimeout(r, 10));
    expect(reads).toBe(1);
  });

  it("a live catalog: its prefixHash follows the registry", async () => {
    const { registry, set } = setup();
    const hashes: string[] = [];
    const sub = subscribe(
      registry,
      async () => {
        const snap = await registry.snapshot();
        const tools = snap.entries.map((e) => ({
          name: e.name,
          description: e.entry.description,
          parameters: { type: "object", properties: {} },
        }));
        return renderCatalog({
          provider: "anthropic",
          tools,
          budgetChars: 8000,
          incomplete: snap.incomplete,
        });
      },
      { onValue: (c) => hashes.push(c.prefixHash) },
    );
    await sub.settled();
    set([{ name: "a", description: "first" }]); // same content: same hash
    await sub.settled();
    set([{ name: "a", description: "changed" }]);
    await sub.settled();
    expect(hashes).toHaveLength(3);
    expect(hashes[1]).toBe(hashes[0]);
    expect(hashes[2]).not.toBe(hashes[0]);
    sub.close();
  });

  it("mergeSources and nextInvalidation", async () => {
    const a = new Registry<E>();
    const b = new Registry<E>();
    const both = mergeSources(a, b);
    const next = nextInvalidation(both);
    b.invalidate("runtime");
    expect(await next).toEqual({ reason: "runtime", generation: 1 });
    const controller = new AbortController();
    const aborted = nextInvalidation(both, controller.signal);
    controller.abort(new Error("stop"));
    await expect(aborted).rejects.toThrow("stop");
  });
});
