// The host takes a call in the wire form the plane rendered, with no step for the harness: the
// provider's renamed tool, OpenAI strict mode's nulls, Gemini's enum strings, as parsed arguments
// or as the JSON text a provider returns. And which deferred tool a call may reach is answered for
// the catalog the call came from, never for whichever catalog was rendered last.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Toolplane } from "../../src/assemble/toolplane.js";
import { defineTool } from "../../src/declare/index.js";
import { GLOBAL_LAYER } from "../../src/register/index.js";
import type { ProviderName } from "../../src/render/index.js";
import { tempProject } from "../helpers/tmp.js";

/** Optional and nullable parameters, a union with optional branch fields, a numeric enum. */
const probe = defineTool({
  name: "2fa-probe",
  description: "Echoes what it was called with.",
  parameters: z.object({
    id: z.string(),
    limit: z.number().int().optional(),
    note: z.string().nullable().optional(),
    level: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
    target: z
      .union([
        z.object({ kind: z.literal("file"), path: z.string(), line: z.number().optional() }),
        z.object({ kind: z.literal("url"), url: z.string() }),
      ])
      .optional(),
  }),
  output: { schema: z.string(), render: (v: string) => v },
  execute: (args) => JSON.stringify(args),
});

const planes: Toolplane[] = [];
afterEach(async () => {
  for (const plane of planes.splice(0)) await plane.close();
});

async function open(set: string[] = []): Promise<Toolplane> {
  const p = tempProject();
  const plane = await Toolplane.open({ cwd: p.repo, env: p.env, set, bundledSkills: null });
  plane.tools.register(GLOBAL_LAYER, { name: "probe", enumerate: () => [probe] });
  planes.push(plane);
  return plane;
}

const wireName = (wire: unknown) => {
  const w = wire as { name?: string; function?: { name: string } };
  return w.function?.name ?? w.name ?? "";
};

describe("the host accepts the wire form the plane rendered", () => {
  it("OpenAI strict: nulls for optional parameters, as JSON text or parsed, mean left out", async () => {
    const plane = await open();
    for (const provider of ["openai-responses", "openai-chat"] as const) {
      const catalog = await plane.catalog(provider);
      const wire = catalog.tools.find((t) => wireName(t).endsWith("probe"))!;
      const args = {
        id: "a",
        limit: null,
        note: null,
        level: null,
        target: { kind: "file", path: "x", line: null },
      };
      const host = plane.host();
      for (const sent of [JSON.stringify(args), args]) {
        const [result] = await host.run([{ id: "c1", tool: wireName(wire), args: sent }]);
        expect(result!.isError, JSON.stringify(result)).toBe(false);
        // a null the schema takes (note) stays; the others are left out
        expect(JSON.parse(result!.value as string)).toEqual({
          id: "a",
          note: null,
          target: { kind: "file", path: "x" },
        });
      }
    }
  });

  it("Gemini: the renamed tool is found and an enum value sent as a string gets its number back", async () => {
    const plane = await open();
    const catalog = await plane.catalog("gemini");
    expect(catalog.report.renamed).toEqual([{ name: "2fa-probe", wireName: "_2fa-probe" }]);
    const result = await plane.call("_2fa-probe", '{"id":"a","level":"3"}', { provider: "gemini" });
    expect(result.isError, JSON.stringify(result)).toBe(false);
    expect(JSON.parse(result.value as string)).toEqual({ id: "a", level: 3 });
    // the host of a plane that rendered gemini alone maps the name without being told
    expect((await plane.host().call({ tool: "_2fa-probe", args: { id: "b" } })).isError).toBe(false);
  });

  it("a null for a required parameter is still refused, saying what to send", async () => {
    const plane = await open();
    await plane.catalog("openai-responses");
    const result = await plane.call("2fa-probe", { id: null });
    expect(result.error?.code).toBe("invalid_arguments");
    expect(result.error?.message).toContain("/id");
  });
});

describe("deferral answers per provider of the catalog the call came from", () => {
  const set = ["tools.examples=true", 'defer.tools={"ticket_status":"always"}'];
  const call = { tool: "ticket_status", args: { ticket_id: "T-1001", include_history: null } };

  for (const order of [
    ["anthropic", "openai-chat"],
    ["openai-chat", "anthropic"],
  ] as ProviderName[][]) {
    it(`rendered ${order.join(" then ")}: native for anthropic's calls, tool_search first for openai-chat's`, async () => {
      const plane = await open(set);
      for (const provider of order) await plane.catalog(provider);
      const viaAnthropic = await plane.host({ provider: "anthropic" }).call(call);
      expect(viaAnthropic.isError, JSON.stringify(viaAnthropic)).toBe(false);
      const viaChat = await plane.host({ provider: "openai-chat" }).call(call);
      expect(viaChat.error?.code).toBe("unknown_tool");
      expect(viaChat.error?.message).toContain("call tool_search first");
      // a host that names no provider, on a session that rendered two that differ: tool_search first
      expect((await plane.host().call(call)).error?.message).toContain("call tool_search first");
    });
  }

  it("a session that rendered one provider's catalog is answered for it without naming it", async () => {
    const native = await open(set);
    await native.catalog("anthropic");
    expect((await native.host().call(call)).isError).toBe(false);
    const names = await open(set);
    await names.catalog("openai-chat");
    expect((await names.host().call(call)).error?.message).toContain("call tool_search first");
  });
});
