// A tool changed in place takes shortcuts at every station (the merge patched, visibility
// swapped, the plan kept, only the changed projections looked up, the render incremental). Each
// catalog after such a change must be byte for byte what a new plane renders for the same tools.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import { type AnyTool, defineTool } from "../../src/declare/index.js";
import { GLOBAL_LAYER } from "../../src/register/index.js";
import type { ProviderName } from "../../src/render/index.js";
import { tempProject } from "../helpers/tmp.js";

const PROVIDERS: ProviderName[] = ["anthropic", "openai-chat", "openai-responses", "gemini", "mcp"];

function tool(name: string, version: number, namespace?: string, defer?: "never"): AnyTool {
  return defineTool({
    name,
    description: `${name} does its job, version ${version}`,
    parameters: { type: "object", properties: { [`p${version % 3}`]: { type: "string" } } },
    output: { schema: { type: "string" }, render: (v: string) => v },
    execute: () => `${name} ran version ${version}`,
    ...(namespace ? { namespace } : {}),
    ...(defer ? { defer } : {}),
  });
}

/** What a catalog shows, without the report's residency changes (a new plane has its own history). */
function shown(c: Awaited<ReturnType<Toolplane["catalog"]>>) {
  return JSON.stringify({ tools: c.tools, system: c.system, prefixHash: c.prefixHash, budget: c.budget });
}

const SETS: Record<string, string[]> = {
  off: ["defer.mode=off"],
  names: ["defer.threshold=10", 'defer.resident=["t0","t1","t2"]', "defer.native=false"],
  native: ["defer.threshold=10", 'defer.resident=["t0","t1","t2"]', "defer.native=true"],
};

describe("catalogs after in-place changes equal a new plane's", () => {
  for (const [label, set] of Object.entries(SETS)) {
    it(`defer: ${label}`, async () => {
      const p = tempProject({});
      const rules = 'permissions.rules=[{"effect":"deny","namespace":"locked"}]';
      const options = { cwd: p.repo, env: p.env, bundledSkills: null, set: [...set, rules] };
      const plane = await Toolplane.open(options);
      try {
        let tools = Array.from({ length: 40 }, (_, i) => tool(`t${i}`, 0));
        const handle = plane.tools.register(GLOBAL_LAYER, { name: "many", enumerate: () => tools });
        for (const provider of PROVIDERS) await plane.catalog(provider);
        let version = 1;
        await fc.assert(
          fc.asyncProperty(
            fc.array(
              fc.record({
                at: fc.nat(39),
                locked: fc.boolean(),
                pinned: fc.boolean(),
                kind: fc.constantFrom("text", "text", "side"),
              }),
              { minLength: 1, maxLength: 3 },
            ),
            async (edits) => {
              tools = tools.slice();
              // mostly a new text; now and then a tool moved into a denied namespace (it leaves the
              // catalog, and comes back) or marked never deferred by its declaration
              for (const e of edits) {
                const was = tools[e.at]!.host;
                tools[e.at] =
                  e.kind === "text"
                    ? tool(`t${e.at}`, version++, was.namespace, was.defer === "never" ? "never" : undefined)
                    : tool(
                        `t${e.at}`,
                        version++,
                        e.locked ? "locked" : undefined,
                        e.pinned ? "never" : undefined,
                      );
              }
              handle.changed();
              const fresh = await Toolplane.open(options);
              try {
                const now = tools;
                fresh.tools.register(GLOBAL_LAYER, { name: "many", enumerate: () => now });
                for (const provider of PROVIDERS) {
                  expect(shown(await plane.catalog(provider))).toBe(shown(await fresh.catalog(provider)));
                }
              } finally {
                await fresh.close();
              }
            },
          ),
          { numRuns: 15 },
        );
      } finally {
        await plane.close();
      }
    });
  }
});
