import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/declare/index.js";
import { chooseTimeout, planGroups } from "../../src/execute/index.js";
import { testHost, textOf } from "../helpers/host.js";

describe("scheduling one turn's calls", () => {
  it("groups consecutive safe calls; unsafe calls stand alone, in order (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 30 }), (safe) => {
        const groups = planGroups(safe);
        expect(groups.flat()).toEqual(safe.map((_, i) => i));
        for (const g of groups) {
          if (g.length > 1) expect(g.every((i) => safe[i])).toBe(true);
          if (g.some((i) => !safe[i])) expect(g).toHaveLength(1);
        }
        // no two adjacent groups are both all-safe (maximal runs)
        for (let i = 1; i < groups.length; i++) {
          const both = [groups[i - 1]!, groups[i]!].every((g) => g.every((j) => safe[j]));
          expect(both).toBe(false);
        }
      }),
    );
  });

  it("safe calls overlap, unsafe calls never do, and results come back in call order", async () => {
    const events: string[] = [];
    let active = 0;
    let maxActive = 0;
    const make = (name: string, safe: boolean) =>
      defineTool({
        name,
        description: `${name} tool`,
        parameters: z.object({ id: z.string(), wait: z.number() }),
        output: { schema: z.string(), render: (v: string) => v },
        concurrencySafe: safe,
        execute: async ({ id, wait }) => {
          active += 1;
          maxActive = Math.max(maxActive, active);
          events.push(`start ${id} (${active} running)`);
          // a later-started call may finish first: order of results must not follow completion
          await new Promise((r) => setTimeout(r, wait));
          active -= 1;
          events.push(`end ${id}`);
          return `${name}:${id}`;
        },
      });
    const { host } = testHost([make("look", true), make("write", false)]);
    const calls = [
      { tool: "look", args: { id: "a", wait: 30 } },
      { tool: "look", args: { id: "b", wait: 1 } },
      { tool: "look", args: { id: "c", wait: 10 } },
      { tool: "write", args: { id: "d", wait: 5 } },
      { tool: "write", args: { id: "e", wait: 1 } },
      { tool: "look", args: { id: "f", wait: 1 } },
    ];
    const results = await host.run(calls);
    expect(results.map(textOf)).toEqual(["look:a", "look:b", "look:c", "write:d", "write:e", "look:f"]);
    expect(maxActive).toBe(3);
    // d starts only after a, b, c ended; e only after d ended; f only after e
    const at = (e: string) => events.indexOf(e);
    expect(at("start d (1 running)")).toBeGreaterThan(Math.max(at("end a"), at("end b"), at("end c")));
    expect(at("start e (1 running)")).toBeGreaterThan(at("end d"));
    expect(at("start f (1 running)")).toBeGreaterThan(at("end e"));
  });

  it("tools.maxConcurrency caps a safe group", async () => {
    let active = 0;
    let maxActive = 0;
    const t = defineTool({
      name: "look",
      description: "look",
      parameters: z.object({}),
      output: { schema: z.string(), render: (v: string) => v },
      concurrencySafe: true,
      execute: async () => {
        maxActive = Math.max(maxActive, ++active);
        await new Promise((r) => setTimeout(r, 2));
        active -= 1;
        return "ok";
      },
    });
    const { host } = testHost([t], { config: { "tools.maxConcurrency": 2 } });
    const results = await host.run(Array.from({ length: 7 }, () => ({ tool: "look", args: {} })));
    expect(results).toHaveLength(7);
    expect(maxActive).toBe(2);
  });

  it("timeout precedence: per-tool config > the tool's own > global config", () => {
    const config = { "tools.timeoutMs": 1000, "tools.timeouts": { slow: 5 } };
    expect(chooseTimeout("slow", 300, config)).toEqual({ ms: 5, source: "tools.timeouts.slow" });
    expect(chooseTimeout("other", 300, config)).toEqual({ ms: 300, source: "the tool's own timeoutMs" });
    expect(chooseTimeout("other", undefined, config)).toEqual({ ms: 1000, source: "tools.timeoutMs" });
  });
});
