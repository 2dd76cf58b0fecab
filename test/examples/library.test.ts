import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../examples/library/weather.js";
import { ROOT } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

describe("the README's library example", () => {
  it("is the README's block, word for word, and imports the package by name", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const file = readFileSync(path.join(ROOT, "examples", "library", "weather.ts"), "utf8");
    const section = readme.slice(readme.indexOf("\n## Library\n"));
    expect(/```ts\n([\s\S]*?)```/.exec(section)?.[1]).toBe(file);
    // test/package/pack.test.ts compiles and runs this block against the installed tarball
    expect(file).toMatch(/from "toolplane";/);
    expect(file).not.toMatch(/from "\.\.?\//);
  });

  it("registers a tool, renders it and runs a call through the host", async () => {
    const p = tempProject();
    const { catalog, result } = await main(p.repo, p.env);
    expect(JSON.stringify(catalog.tools)).toContain('"weather"');
    expect(catalog.prefixHash).toMatch(/^[0-9a-f]{64}$/);
    expect(result).toMatchObject({ id: "call_1", tool: "weather", isError: false });
    expect(result?.content).toEqual([{ type: "text", text: "Lisbon: 16 °C" }]);
  });
});
