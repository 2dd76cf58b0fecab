import { describe, expect, it } from "vitest";
import { builtinFileTools } from "../../src/tools/index.js";
import { testHost, textOf } from "../helpers/host.js";

// An error result is a result: its text obeys results.inlineMaxBytes and results.lineMaxChars,
// and says what was cut.

describe("error results obey the result limits", () => {
  const { host } = testHost(builtinFileTools());

  it("70,000 unknown fields: the first issues and a note, not megabytes", async () => {
    const args: Record<string, number> = { pattern: 1 };
    for (let i = 0; i < 70_000; i++) args[`f${i}`] = 1;
    const json = JSON.stringify(args);
    expect(json.length).toBeLessThan(1_048_576);
    const r = await host.call({ tool: "glob", args: json });
    expect(r.error?.code).toBe("invalid_arguments");
    const text = textOf(r);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(51_200);
    expect(text).toMatch(/^invalid arguments for glob:\n\/f0: is not a parameter/);
    expect(text).toMatch(
      /\[error text cut: showing the first \d+ of \d+ bytes \(results\.inlineMaxBytes is 51200\)\]$/,
    );
    expect(Buffer.byteLength(r.error!.message)).toBeLessThanOrEqual(51_200);
    expect(r.truncated).toBe(true);
  });

  it("a 5 MB unknown tool name is not echoed back", async () => {
    const name = "n".repeat(5_000_000);
    const r = await host.call({ tool: name, args: {} });
    expect(r.error?.code).toBe("unknown_tool");
    expect(JSON.stringify(r).length).toBeLessThan(2000);
    expect(textOf(r)).toMatch(
      /no tool named "n{64}"… \(a name of 5000000 characters\)\. Available tools: [a-z_]+(, [a-z_]+)*\.$/,
    );
  });

  it("an argument error with a very long line is cut at results.lineMaxChars, with the marker", async () => {
    const { host: narrow } = testHost(builtinFileTools(), { config: { "results.lineMaxChars": 300 } });
    const r = await narrow.call({ tool: "read", args: { path: "a", ["k".repeat(5000)]: 1 } });
    const text = textOf(r);
    for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(300 + 40);
    expect(text).toMatch(/… \[line cut: \d+ more characters\]/);
    expect(r.truncated).toBe(true);
  });
});
