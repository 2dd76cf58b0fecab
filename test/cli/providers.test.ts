import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

const decl = (name: string) =>
  `{ name: "${name}", description: "The ${name} tool.", parameters: { type: "object", properties: {} }, output: { schema: { type: "string" }, render: (v) => v }, execute: () => "${name} ran" }`;

/**
 * A project (trusted: its modules load) with one good module and one bad provider. The bad one
 * is the only pending work of the process when it hangs: nothing but the registry's own timer
 * keeps the CLI alive.
 */
function project(bad: string) {
  return tempProject(
    {
      ".toolplane/config.json": JSON.stringify({ tools: { modules: ["good.mjs", "bad.mjs"] } }),
      "good.mjs": `export const tools = [${decl("good_tool")}];`,
      "bad.mjs": bad,
    },
    { trust: true },
  );
}

const HANG = "export function provider() { return { enumerate: () => new Promise(() => {}) }; }";
const MALFORMED = `export function provider() { return { enumerate: () => [${decl("twice")}, ${decl("twice")}] }; }`;
const FAST = ["--set", "tools.providerTimeoutMs=300"];

describe("a bad tool provider takes nothing else down", () => {
  it("a hanging provider times out: catalog, layers, doctor, call and search print the rest and name it", () => {
    const p = project(HANG);
    const opts = { cwd: p.repo, env: p.env, timeoutMs: 30_000 };
    const problem = {
      provider: "module:bad.mjs",
      layer: "global",
      outcome: "rejected",
      reason: "timed out after 300 ms",
    };

    const catalog = runCli(["catalog", "--json", ...FAST], opts);
    const c = JSON.parse(catalog.stdout);
    expect(JSON.stringify(c.tools)).toContain("good_tool");
    expect(c.incomplete).toBe(true);
    expect(c.problems).toEqual([problem]);
    expect(catalog.code).toBe(1); // the catalog is incomplete: the work partly failed
    const human = runCli(["catalog", ...FAST], opts);
    expect(human.stdout).toContain("module:bad.mjs (layer global): rejected: timed out after 300 ms");
    expect(human.stdout).toMatch(/tools \(\d+\):[\s\S]*good_tool/);

    const layers = runCli(["layers", "--json", ...FAST], opts);
    expect(layers.code).toBe(0);
    const l = JSON.parse(layers.stdout);
    expect(l.incomplete).toBe(true);
    expect(l.problems).toEqual([problem]);
    expect(l.layers[0].entries.map((e: { name: string }) => e.name)).toContain("good_tool");

    const doctor = runCli(["doctor", "--json", ...FAST], opts);
    const d = JSON.parse(doctor.stdout);
    expect(d.problems).toEqual([
      expect.objectContaining({ ...problem, reason: expect.stringMatching(/^timed out after 300 ms/) }),
    ]);
    expect(d.checks.find((x: { check: string }) => x.check === "provider-problems")).toMatchObject({
      ok: false,
    });
    expect(doctor.code).toBe(1);

    const call = runCli(["call", "good_tool", "--json", ...FAST], opts);
    expect(call.code).toBe(0);
    expect(JSON.parse(call.stdout).content[0].text).toBe("good_tool ran");

    const search = runCli(["search", "good tool", "--json", ...FAST], opts);
    expect(search.code).toBe(0);
    expect(JSON.parse(search.stdout).results.map((r: { name: string }) => r.name)).toContain("good_tool");
  });

  it("a malformed provider is left out and named; every catalog and call still works", () => {
    const p = project(MALFORMED);
    const opts = { cwd: p.repo, env: p.env };
    const problem = {
      provider: "module:bad.mjs",
      layer: "global",
      outcome: "malformed",
      entry: "twice",
      reason: 'provider "module:bad.mjs" gave a malformed entry "twice": the provider lists this name twice',
    };
    const catalog = runCli(["catalog", "--json"], opts);
    const c = JSON.parse(catalog.stdout);
    expect(JSON.stringify(c.tools)).toContain("good_tool");
    expect(c.problems).toEqual([problem]);
    expect(catalog.code).toBe(1);
    const layers = JSON.parse(runCli(["layers", "--json"], opts).stdout);
    expect(layers.problems).toEqual([problem]);
    const call = runCli(["call", "good_tool", "--json"], opts);
    expect(call.code).toBe(0);
    expect(JSON.parse(call.stdout).isError).toBe(false);
    const read = runCli(["call", "read", "--args", '{"path":"good.mjs"}', "--json"], opts);
    expect(read.code).toBe(0);
  });
});
