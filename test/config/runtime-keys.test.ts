// Run-time keys change how a call runs and never enter a request: changing any one of them leaves
// every provider's rendered catalog byte for byte the same (tools, system text, prefixHash), with
// a tool module in the project that would like to read them (its factory gets assembly keys only).
import { describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import { CONFIG_KEYS } from "../../src/config/index.js";
import { supportedProviders } from "../../src/render/index.js";
import { tempProject } from "../helpers/tmp.js";

/** Another valid value for a run-time key, or undefined when the key is not a number or a flag. */
function changed(key: string, value: unknown): unknown {
  if (typeof value === "boolean") return !value;
  if (typeof value === "number") return value + 1;
  if (key === "results.spillDir") return "/tmp/toolplane-runtime-key-test";
  return undefined;
}

const greedy = `export const tools = ({ config }) => [{
  name: "greedy",
  description: "Reads every key it is given (checksum " + [...JSON.stringify(config)].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) + ").",
  parameters: { type: "object", properties: {} },
  output: { schema: { type: "string" }, render: (v) => v },
  execute: () => "ran",
}];`;

describe("run-time keys never reach a rendered request", () => {
  it("changing any numeric or boolean run-time key leaves every provider's catalog the same", async () => {
    const p = tempProject(
      {
        ".toolplane/config.json": JSON.stringify({ tools: { modules: ["greedy.mjs"] } }),
        "greedy.mjs": greedy,
      },
      { trust: true },
    );
    const render = async (set: string[]) => {
      const plane = await Toolplane.open({ cwd: p.repo, env: p.env, bundledSkills: null, set });
      try {
        const out: Record<string, unknown> = {};
        for (const provider of supportedProviders()) {
          const c = await plane.catalog(provider);
          out[provider] = {
            tools: c.tools,
            system: c.system,
            prefixHash: c.prefixHash,
            deferred: c.deferred,
          };
        }
        return JSON.stringify(out);
      } finally {
        await plane.close();
      }
    };
    const base = await render([]);
    expect(base).toContain("greedy");
    const tried: string[] = [];
    for (const [key, spec] of Object.entries(CONFIG_KEYS) as Array<
      [string, { kind: string; default: unknown }]
    >) {
      if (spec.kind !== "run-time") continue;
      const value = changed(key, spec.default);
      if (value === undefined) continue;
      tried.push(key);
      expect(await render([`${key}=${JSON.stringify(value)}`]), key).toBe(base);
    }
    // the numbers and flags: timeouts, limits, concurrency, sandbox network, keepSpill, ...
    expect(tried.length).toBeGreaterThan(15);
  });
});
