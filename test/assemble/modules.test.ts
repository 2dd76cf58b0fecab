import { describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/toolplane.js";
import { runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

const decl = (name: string) =>
  `{ name: "${name}", description: "The ${name} tool.", parameters: { type: "object", properties: {} }, output: { schema: { type: "string" }, render: (v) => v }, execute: () => "${name} ran" }`;

async function open(files: Record<string, string>, scope?: string) {
  const { repo, env } = tempProject(files, { trust: true });
  return Toolplane.open({ cwd: repo, env, bundledSkills: null, ...(scope ? { scope } : {}) });
}

describe("tools.modules", () => {
  it("registers each module's tools as one provider, in its layer, callable through the host", async () => {
    const plane = await open(
      {
        ".toolplane/config.json": JSON.stringify({
          tools: { modules: ["a.mjs", { path: "b.mjs", layer: "preset:review" }, "c.mjs"] },
        }),
        // assembly keys only: a run-time key (tools.timeoutMs) changes while the session runs and
        // must never reach a description, so a factory does not see one
        "a.mjs": `export const tools = ({ config }) => (config["defer.threshold"] === 40 && !("tools.timeoutMs" in config) ? [${decl("alpha")}] : []);`,
        "b.mjs": `export default [${decl("beta")}];`,
        "c.mjs": `export const layer = "agent:x"; export const tools = [${decl("gamma")}];`,
      },
      "preset:review",
    );
    try {
      const snap = await plane.toolSnapshot();
      expect(snap.get("alpha")).toMatchObject({ provider: "module:a.mjs", layer: "global" });
      expect(snap.get("beta")).toMatchObject({ provider: "module:b.mjs", layer: "preset:review" });
      expect(snap.get("gamma")).toBeUndefined();
      expect((await plane.tools.snapshot(["agent:x"])).get("gamma")?.layer).toBe("agent:x");
      const result = await plane.call("beta", {});
      expect(result.isError).toBe(false);
      expect(JSON.stringify(result.content)).toContain("beta ran");
    } finally {
      await plane.close();
    }
  });

  it("takes a provider() factory whose list can change", async () => {
    const plane = await open({
      ".toolplane/config.json": JSON.stringify({ tools: { modules: ["p.mjs"] } }),
      "p.mjs": `export function provider() { return { enumerate: () => [${decl("delta")}] }; }`,
    });
    try {
      expect((await plane.toolSnapshot()).get("delta")?.provider).toBe("module:p.mjs");
    } finally {
      await plane.close();
    }
  });

  it("a module that is missing, empty or malformed is left out and named; the rest still work", async () => {
    const plane = await open({
      ".toolplane/config.json": JSON.stringify({
        tools: { modules: ["nope.mjs", "e.mjs", "m.mjs", "s.mjs", "good.mjs"] },
      }),
      "e.mjs": "export const x = 1;",
      "m.mjs": `export const tools = [{ name: "bad name!", description: "x" }];`,
      "s.mjs": "export const tools = [ this is not javascript",
      "good.mjs": `export const tools = [${decl("fine")}];`,
    });
    try {
      const snap = await plane.toolSnapshot();
      expect(snap.get("fine")?.provider).toBe("module:good.mjs");
      expect(snap.get("read")).toBeDefined();
      expect(snap.incomplete).toBe(true);
      const by = (p: string) => snap.problems.find((x) => x.provider === p);
      expect(by("module:nope.mjs")).toMatchObject({ outcome: "rejected" });
      expect(by("module:nope.mjs")?.reason).toMatch(/tools.modules: cannot load "nope.mjs"/);
      expect(by("module:e.mjs")?.reason).toMatch(/"e.mjs" exports no tools/);
      expect(by("module:m.mjs")).toMatchObject({ outcome: "malformed", entry: "bad name!" });
      expect(by("module:s.mjs")?.reason).toMatch(/cannot load "s.mjs"/);
      // every call still works, and the catalog names the failed providers
      const result = await plane.call("fine", {});
      expect(result.isError).toBe(false);
      const catalog = await plane.catalog("anthropic");
      expect(catalog.incomplete).toBe(true);
      expect(catalog.problems.map((p) => p.provider)).toEqual([
        "module:e.mjs",
        "module:m.mjs",
        "module:nope.mjs",
        "module:s.mjs",
      ]);
    } finally {
      await plane.close();
    }
  });

  it("applies scopes.restrictions to the layer", async () => {
    const plane = await open(
      {
        ".toolplane/config.json": JSON.stringify({
          scopes: { restrictions: { "preset:ro": { deny: ["grep"] } } },
        }),
      },
      "preset:ro",
    );
    try {
      const snap = await plane.toolSnapshot();
      expect(snap.get("grep")).toBeUndefined();
      expect(snap.withheld.map((w) => w.name)).toContain("grep");
      expect(snap.get("read")).toBeDefined();
    } finally {
      await plane.close();
    }
  });

  it("registers the ticket_status example only when tools.examples is true (off by default)", async () => {
    for (const [examples, expected] of [
      [undefined, false],
      [false, false],
      [true, true],
    ] as const) {
      const config = examples === undefined ? {} : { tools: { examples } };
      // the bare env: the fixtures' env turns the example on
      const { repo, bareEnv } = tempProject({ ".toolplane/config.json": JSON.stringify(config) });
      const plane = await Toolplane.open({ cwd: repo, env: bareEnv, bundledSkills: null });
      try {
        const names = (await plane.visibleTools()).map((t) => t.name);
        expect(names.includes("ticket_status"), `tools.examples=${examples}`).toBe(expected);
        expect(names).toContain("read");
        expect(plane.config.values["tools.examples"].value).toBe(expected);
      } finally {
        await plane.close();
      }
    }
  });

  it("a module whose import never settles is a problem after tools.providerTimeoutMs, not a silent exit 0", () => {
    const { repo, env } = tempProject(
      {
        ".toolplane/config.json": JSON.stringify({
          tools: { modules: ["stuck.mjs", "slow-factory.mjs", "ok.mjs"] },
        }),
        "stuck.mjs": "await new Promise(() => {});\nexport const tools = [];",
        "slow-factory.mjs": "export const tools = () => new Promise(() => {});",
        "ok.mjs": `export const tools = [${decl("fine")}];`,
      },
      { trust: true },
    );
    const r = runCli(["catalog", "--json", "--set", "tools.providerTimeoutMs=1000"], { cwd: repo, env });
    // the catalog is printed without them, incomplete, and names each
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.tools.map((t: { name: string }) => t.name)).toContain("fine");
    expect(out.incomplete).toBe(true);
    const reasons = Object.fromEntries(
      out.problems.map((p: { provider: string; reason: string }) => [p.provider, p.reason]),
    );
    expect(reasons["module:stuck.mjs"]).toMatch(
      /did not finish loading within 1000 ms \(tools\.providerTimeoutMs\)/,
    );
    expect(reasons["module:slow-factory.mjs"]).toMatch(/tools\(\{config\}\) did not return within 1000 ms/);
  });
});
