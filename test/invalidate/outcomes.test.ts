import { describe, expect, it } from "vitest";
import { GLOBAL_LAYER, MalformedEntryError, Registry } from "../../src/register/index.js";

type E = { name: string };
const entries = (...names: string[]): E[] => names.map((name) => ({ name }));

/** A provider whose behaviour a test switches, counting its enumerations. */
function controllable(name: string, initial: () => unknown) {
  const state = { calls: 0, behave: initial, signals: [] as AbortSignal[] };
  return {
    state,
    provider: {
      name,
      enumerate: (signal: AbortSignal) => {
        state.calls++;
        state.signals.push(signal);
        return state.behave() as E[];
      },
    },
  };
}

describe("provider enumeration outcomes", () => {
  it("rejected (threw): omitted, logged, incomplete; the others stay cached and it is retried next read", async () => {
    const log: string[] = [];
    const registry = new Registry<E>({ log: (l) => log.push(l) });
    const good = controllable("good", () => entries("a", "b"));
    const bad = controllable("bad", () => {
      throw new Error("server down");
    });
    registry.register(GLOBAL_LAYER, good.provider);
    registry.register(GLOBAL_LAYER, bad.provider);

    const first = await registry.snapshot();
    expect(first.entries.map((e) => e.name)).toEqual(["a", "b"]);
    expect(first.incomplete).toBe(true);
    expect(first.problems).toEqual([
      { provider: "bad", layer: "global", outcome: "rejected", reason: "server down" },
    ]);
    expect(log).toEqual(['entry provider "bad" rejected: server down']);

    // one failing provider never blocks the cache for the others longer than one read
    const second = await registry.snapshot();
    expect(good.state.calls).toBe(1);
    expect(bad.state.calls).toBe(2);
    expect(second.incomplete).toBe(true);

    bad.state.behave = () => entries("c");
    const third = await registry.snapshot();
    expect(third.incomplete).toBe(false);
    expect(third.entries.map((e) => e.name)).toEqual(["a", "b", "c"]);
    const fourth = await registry.snapshot();
    expect(fourth).toBe(third); // complete: cached as a whole
    expect(good.state.calls).toBe(1);
    expect(bad.state.calls).toBe(3);
  });

  it("rejected (timed out): bounded by the timeout, its signal aborted, a late answer ignored", async () => {
    const registry = new Registry<E>({ enumerateTimeoutMs: 30, retryAfterTimeoutMs: 60_000 });
    let release: (v: E[]) => void = () => {};
    const slowSignals: AbortSignal[] = [];
    registry.register(GLOBAL_LAYER, { name: "fast", enumerate: () => entries("a") });
    const slow = registry.register(GLOBAL_LAYER, {
      name: "slow",
      enumerate: (signal) => {
        slowSignals.push(signal);
        return new Promise<E[]>((resolve) => {
          release = resolve;
        });
      },
    });
    const snap = await registry.snapshot();
    expect(snap.entries.map((e) => e.name)).toEqual(["a"]);
    expect(snap.problems[0]).toMatchObject({
      provider: "slow",
      outcome: "rejected",
      reason: "timed out after 30 ms",
    });
    expect(slowSignals[0]!.aborted).toBe(true);
    release(entries("late"));
    await new Promise((r) => setTimeout(r, 5));
    // one hanging provider costs one timeout: the next reads report it at once, without asking it
    const started = Date.now();
    const again = await registry.snapshot();
    expect(Date.now() - started).toBeLessThan(25);
    expect(slowSignals).toHaveLength(1);
    expect(again.entries.map((e) => e.name)).toEqual(["a"]);
    expect(again.incomplete).toBe(true);
    expect(again.problems[0]?.reason).toMatch(/^timed out after 30 ms; not asked again for 60 s/);
    // a change lets it be asked again at once
    slow.changed();
    await registry.snapshot();
    expect(slowSignals).toHaveLength(2);
  });

  it("the timeout timer keeps a process alive that has nothing else to wait for", async () => {
    // a provider that never settles and holds no handle: only the registry's timer keeps the
    // event loop going, so a CLI prints the rest instead of exiting with nothing
    const { spawnSync } = await import("node:child_process");
    // the built module (npm test builds before vitest runs), in a process of its own
    const url = new URL("../../dist/src/register/registry.js", import.meta.url).href;
    const script = `
      const { Registry, GLOBAL_LAYER } = await import(${JSON.stringify(url)});
      const r = new Registry({ enumerateTimeoutMs: 200 });
      r.register(GLOBAL_LAYER, { name: "hang", enumerate: () => new Promise(() => {}) });
      r.register(GLOBAL_LAYER, { name: "ok", enumerate: () => [{ name: "a" }] });
      const s = await r.snapshot();
      console.log(JSON.stringify({ names: s.entries.map((e) => e.name), problems: s.problems }));`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 20_000,
    });
    const out = JSON.parse(run.stdout) as {
      names: string[];
      problems: Array<{ provider: string; reason: string }>;
    };
    expect(out.names).toEqual(["a"]);
    expect(out.problems).toMatchObject([{ provider: "hang", reason: "timed out after 200 ms" }]);
  });

  it("explicitly incomplete: its entries are used but nothing built from it is cached", async () => {
    const registry = new Registry<E>();
    const partial = controllable("partial", () => ({ entries: entries("p1"), complete: false }));
    const good = controllable("good", () => entries("g"));
    registry.register(GLOBAL_LAYER, partial.provider);
    registry.register(GLOBAL_LAYER, good.provider);
    const a = await registry.snapshot();
    expect(a.entries.map((e) => e.name)).toEqual(["p1", "g"]);
    expect(a.incomplete).toBe(true);
    expect(a.problems).toEqual([
      {
        provider: "partial",
        layer: "global",
        outcome: "incomplete",
        reason: "the provider reported a partial list",
      },
    ]);
    const b = await registry.snapshot();
    expect(b).not.toBe(a);
    expect(partial.state.calls).toBe(2);
    expect(good.state.calls).toBe(1);
    partial.state.behave = () => entries("p1", "p2");
    const c = await registry.snapshot();
    expect(c.incomplete).toBe(false);
    expect(c.entries.map((e) => e.name)).toEqual(["p1", "p2", "g"]);
    expect(await registry.snapshot()).toBe(c);
  });

  it("malformed: that provider is left out, named with its entry; the others stay; fixed, the next read works", async () => {
    const registry = new Registry<E>({
      check: (e) => (e.name.includes(" ") ? "names have no spaces" : undefined),
    });
    const bad = controllable("mcp:github", () => entries("ok", "bad name"));
    registry.register(GLOBAL_LAYER, { name: "fine", enumerate: () => entries("x") });
    registry.register(GLOBAL_LAYER, bad.provider);
    const first = await registry.snapshot();
    expect(first.entries.map((e) => e.name)).toEqual(["x"]);
    expect(first.incomplete).toBe(true);
    expect(first.problems).toEqual([
      {
        provider: "mcp:github",
        layer: "global",
        outcome: "malformed",
        entry: "bad name",
        reason: 'provider "mcp:github" gave a malformed entry "bad name": names have no spaces',
      },
    ]);
    expect(new MalformedEntryError("mcp:github", "bad name", "names have no spaces").message).toBe(
      first.problems[0]!.reason,
    );
    bad.state.behave = () => [{ name: "dup" }, { name: "dup" }];
    expect((await registry.snapshot()).problems[0]?.reason).toMatch(
      'provider "mcp:github" gave a malformed entry "dup"',
    );
    bad.state.behave = () => [{}];
    expect((await registry.snapshot()).problems[0]?.reason).toMatch(
      'malformed entry "#0": an entry needs a non-empty string name',
    );
    bad.state.behave = () => ({ nothing: true });
    expect((await registry.snapshot()).problems[0]).toMatchObject({
      outcome: "malformed",
      reason: 'provider "mcp:github" answered neither a list of entries nor { entries, complete }',
    });
    bad.state.behave = () => entries("ok");
    const fixed = await registry.snapshot();
    expect(fixed.entries.map((e) => e.name)).toEqual(["x", "ok"]);
    expect(fixed.incomplete).toBe(false);
  });

  it("candidates a provider leaves out are malformed problems; its list stays complete and cached", async () => {
    const registry = new Registry<E>();
    const mcp = controllable("mcp:docs", () => ({
      entries: entries("search"),
      problems: [{ entry: "fetch", reason: 'inputSchema: $ref "#/$defs/Missing" does not resolve' }],
    }));
    registry.register(GLOBAL_LAYER, mcp.provider);
    const snap = await registry.snapshot();
    expect(snap.entries.map((e) => e.name)).toEqual(["search"]);
    expect(snap.incomplete).toBe(false);
    expect(snap.problems).toEqual([
      {
        provider: "mcp:docs",
        layer: "global",
        outcome: "malformed",
        entry: "fetch",
        reason: 'inputSchema: $ref "#/$defs/Missing" does not resolve',
      },
    ]);
    expect(await registry.snapshot()).toBe(snap);
    expect(mcp.state.calls).toBe(1);
  });

  it("a provider that changes while it is read is read again once, then reported incomplete", async () => {
    const registry = new Registry<E>();
    let handle: { changed(): void } | undefined;
    let changesLeft = 1;
    let calls = 0;
    handle = registry.register(GLOBAL_LAYER, {
      name: "churn",
      enumerate: () => {
        calls++;
        if (changesLeft-- > 0) handle!.changed();
        return entries(`v${calls}`);
      },
    });
    const once = await registry.snapshot();
    expect(calls).toBe(2);
    expect(once.entries.map((e) => e.name)).toEqual(["v2"]);
    expect(once.incomplete).toBe(false);

    changesLeft = 2;
    handle.changed();
    const twice = await registry.snapshot();
    expect(calls).toBe(4);
    expect(twice.incomplete).toBe(true);
    expect(twice.problems[0]).toMatchObject({ provider: "churn", outcome: "incomplete" });
    expect(twice.problems[0]!.reason).toMatch(/changed twice/);
  });

  it("invalidations carry no diff and fire on provider, restriction and run-time changes", () => {
    const registry = new Registry<E>();
    const events: unknown[] = [];
    registry.on("invalidated", (e) => events.push(e));
    const h = registry.register("session-1", { name: "p", enumerate: () => entries("a") });
    h.changed();
    registry.restrict("session-1", { deny: ["a"] });
    registry.invalidate("runtime");
    h.unregister();
    expect(events).toEqual([
      { reason: "provider", generation: 1, layer: "session-1", provider: "p" },
      { reason: "provider", generation: 2, layer: "session-1", provider: "p" },
      { reason: "restriction", generation: 3, layer: "session-1" },
      { reason: "runtime", generation: 4 },
      { reason: "provider", generation: 5, layer: "session-1", provider: "p" },
    ]);
  });
});
