import { describe, expect, it } from "vitest";
import { GLOBAL_LAYER, MalformedEntryError, Registry } from "../../src/register/index.js";

type E = { name: string; v?: number };

describe("a provider that changes entries in place (same names, same places)", () => {
  it("the next snapshot has the new entry, and every unchanged entry keeps its record", async () => {
    const r = new Registry<E>();
    let list: E[] = Array.from({ length: 50 }, (_, i) => ({ name: `t${i}` }));
    const handle = r.register(GLOBAL_LAYER, { name: "p", enumerate: () => list });
    const before = await r.snapshot();
    list = list.slice();
    list[7] = { name: "t7", v: 2 };
    handle.changed();
    const after = await r.snapshot();
    expect(after.get("t7")?.entry).toEqual({ name: "t7", v: 2 });
    expect(after.entries.map((e) => e.name)).toEqual(before.entries.map((e) => e.name));
    for (const [i, e] of after.entries.entries()) {
      if (e.name === "t7") expect(e).not.toBe(before.entries[i]);
      else expect(e).toBe(before.entries[i]);
    }
  });

  it("an array edited in place, then changed(), is read anew (the registry keeps its own copy)", async () => {
    const r = new Registry<E>();
    const list: E[] = [{ name: "a" }, { name: "b" }];
    const handle = r.register(GLOBAL_LAYER, { name: "p", enumerate: () => list });
    await r.snapshot();
    list[1] = { name: "b", v: 9 };
    handle.changed();
    expect((await r.snapshot()).get("b")?.entry).toEqual({ name: "b", v: 9 });
    // a duplicate made in place is still caught: the copy the check compares with is the registry's
    list[1] = { name: "a" };
    handle.changed();
    const dup = await r.snapshot();
    expect(dup.entries).toEqual([]);
    expect(dup.problems[0]).toMatchObject({ provider: "p", outcome: "malformed", entry: "a" });
  });

  it("a changed entry still passes the registry's check, and a renamed one goes through the full check", async () => {
    const r = new Registry<E>({ check: (e) => (e.v === 666 ? "v may not be 666" : undefined) });
    let list: E[] = [{ name: "a" }, { name: "b" }, { name: "c" }];
    const handle = r.register(GLOBAL_LAYER, { name: "p", enumerate: () => list });
    await r.snapshot();
    list = [list[0]!, { name: "b", v: 666 }, list[2]!];
    handle.changed();
    const bad = await r.snapshot();
    expect(bad.problems[0]).toMatchObject({
      outcome: "malformed",
      entry: "b",
      reason: new MalformedEntryError("p", "b", "v may not be 666").message,
    });
    // renamed into a duplicate: not the same names at the same places, so every name is checked
    list = [{ name: "a" }, { name: "c" }, { name: "c" }];
    handle.changed();
    expect((await r.snapshot()).problems[0]).toMatchObject({ outcome: "malformed", entry: "c" });
    list = [{ name: "a" }, { name: "b" }, { name: "c" }];
    handle.changed();
    const fine = await r.snapshot();
    expect(fine.problems).toEqual([]);
    expect(fine.entries.map((e) => e.name)).toEqual(["a", "b", "c"]);
  });
});
