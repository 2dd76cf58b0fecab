import { describe, expect, it } from "vitest";
import {
  DuplicateProviderError,
  GLOBAL_LAYER,
  MalformedEntryError,
  ProviderUnavailable,
  Registry,
  summarize,
} from "../../src/register/index.js";

type E = { name: string; tag?: string };
const provider = (name: string, names: string[], rank?: number, tag = name) => ({
  name,
  ...(rank === undefined ? {} : { rank }),
  enumerate: () => names.map((n) => ({ name: n, tag })),
});

describe("Registry", () => {
  it("remembers an unavailable provider until it reports a change, and asks again then", async () => {
    const r = new Registry<E>();
    r.register(GLOBAL_LAYER, provider("core", ["read"]));
    let asked = 0;
    let down = true;
    const handle = r.register(GLOBAL_LAYER, {
      name: "remote",
      enumerate: () => {
        asked++;
        if (down) throw new ProviderUnavailable(`down (${asked})`);
        return [{ name: "echo" }];
      },
    });
    const first = await r.snapshot();
    expect(first.incomplete).toBe(true);
    expect(first.problems).toEqual([
      { provider: "remote", layer: GLOBAL_LAYER, outcome: "rejected", reason: "down (1)" },
    ]);
    // every later read answers from memory: a provider that is down costs a read nothing
    for (let i = 0; i < 5; i++) expect((await r.snapshot()).problems[0]?.reason).toBe("down (1)");
    expect(asked).toBe(1);
    // the change it reports (a start that landed) is read at once
    handle.changed();
    down = false;
    const back = await r.snapshot();
    expect(asked).toBe(2);
    expect(back.incomplete).toBe(false);
    expect(back.get("echo")).toBeDefined();
  });

  it("rejects a duplicate provider name in one layer, naming both", () => {
    const r = new Registry<E>();
    r.register(GLOBAL_LAYER, provider("fs", ["a"]));
    expect(() => r.register(GLOBAL_LAYER, provider("fs", ["b"]))).toThrow(DuplicateProviderError);
    expect(() => r.register(GLOBAL_LAYER, provider("fs", ["b"]))).toThrow(/"fs".*"fs"/);
    // the same name in another layer is fine
    expect(() => r.register("preset:review", provider("fs", ["b"]))).not.toThrow();
  });

  it("merges global with the chain; the nearest layer wins and the loser is recorded", async () => {
    const r = new Registry<E>();
    r.register(GLOBAL_LAYER, provider("core", ["read", "write", "grep"]));
    r.register("preset:review", provider("review", ["write"], 0, "preset"));
    r.register("session-1", provider("session", ["write"], 0, "session"));
    const snap = await r.snapshot(["session-1", "preset:review"]);
    expect(snap.get("write")?.entry.tag).toBe("session");
    expect(snap.shadowed.map((s) => [s.layer, s.by.layer, s.reason])).toEqual([
      [GLOBAL_LAYER, "preset:review", "layer"],
      ["preset:review", "session-1", "layer"],
    ]);
    const presetOnly = await r.snapshot(["preset:review"]);
    expect(presetOnly.get("write")?.entry.tag).toBe("preset");
    expect((await r.snapshot()).get("write")?.entry.tag).toBe("core");
  });

  it("inside a layer, rank then registration order decides; order is rank, registration, own order", async () => {
    const r = new Registry<E>();
    r.register(GLOBAL_LAYER, provider("late-low", ["z", "shared"], 500));
    r.register(GLOBAL_LAYER, provider("first", ["b", "a", "shared"], 100));
    r.register(GLOBAL_LAYER, provider("second", ["c", "shared"], 100));
    const snap = await r.snapshot();
    expect(snap.entries.map((e) => e.name)).toEqual(["b", "a", "shared", "c", "z"]);
    expect(snap.get("shared")?.provider).toBe("first");
    expect(snap.shadowed.map((s) => s.provider).sort()).toEqual(["late-low", "second"]);
    expect(summarize(snap).map((s) => s.name)).toEqual(["a", "b", "c", "shared", "z"]);
  });

  it("restrictions filter what a layer inherits, never its own entries", async () => {
    const r = new Registry<E>();
    r.register(GLOBAL_LAYER, provider("core", ["read", "write", "mcp__gh__issue", "mcp__gh__pr"]));
    r.register("agent:reader", provider("own", ["write"], 0, "own"));
    r.restrict("agent:reader", { deny: ["write", "mcp__gh__*"] });
    const snap = await r.snapshot(["agent:reader"]);
    expect(snap.entries.map((e) => e.name)).toEqual(["read", "write"]);
    expect(snap.get("write")?.entry.tag).toBe("own");
    expect(snap.withheld.map((w) => w.name)).toEqual(["mcp__gh__issue", "mcp__gh__pr", "write"]);
    r.restrict("agent:reader", { allow: ["read"] });
    expect((await r.snapshot(["agent:reader"])).entries.map((e) => e.name)).toEqual(["read", "write"]);
  });

  it("emits invalidated on changes and serves cached snapshots until then", async () => {
    const r = new Registry<E>();
    let calls = 0;
    const names = ["a"];
    const reg = r.register(GLOBAL_LAYER, {
      name: "p",
      enumerate: () => {
        calls++;
        return names.map((name) => ({ name }));
      },
    });
    const events: string[] = [];
    r.on("invalidated", (e) => events.push(`${e.reason}:${e.provider ?? ""}`));
    const first = await r.snapshot();
    expect(await r.snapshot()).toBe(first);
    expect(calls).toBe(1);
    names.push("b");
    reg.changed();
    expect((await r.snapshot()).entries.map((e) => e.name)).toEqual(["a", "b"]);
    r.invalidate("runtime");
    expect(events).toEqual(["provider:p", "runtime:"]);
  });

  it("leaves out a provider with a malformed entry, naming provider and entry; the others stay", async () => {
    const r = new Registry<E>({
      check: (e) => (e.name.startsWith("bad") ? "names may not start with bad" : undefined),
    });
    r.register(GLOBAL_LAYER, provider("p", ["ok", "bad_one"]));
    r.register(GLOBAL_LAYER, provider("q", ["fine"]));
    const snap = await r.snapshot();
    expect(snap.entries.map((e) => e.name)).toEqual(["fine"]);
    expect(snap.incomplete).toBe(true);
    expect(snap.problems).toEqual([
      {
        provider: "p",
        layer: "global",
        outcome: "malformed",
        entry: "bad_one",
        reason: new MalformedEntryError("p", "bad_one", "names may not start with bad").message,
      },
    ]);
  });
});
