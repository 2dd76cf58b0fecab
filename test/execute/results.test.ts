import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/declare/index.js";
import { buildPreview, cutLines, limitsFrom } from "../../src/execute/index.js";
import { testHost, textOf } from "../helpers/host.js";

const lines = (n: number, width = 10) =>
  Array.from({ length: n }, (_, i) => `line ${String(i + 1).padStart(width, "0")}`).join("\n");

interface Echo {
  text: string;
  next?: number | undefined;
}

const echo = (name: string, spill = true) =>
  defineTool({
    name,
    description: "Returns the text it is given.",
    parameters: z.object({ text: z.string(), next: z.number().optional() }),
    output: {
      schema: z.object({ text: z.string(), next: z.number().optional() }),
      render: (v: Echo) =>
        v.next === undefined
          ? v.text
          : { content: [{ type: "text" as const, text: v.text }], truncated: true, nextOffset: v.next },
    },
    execute: (args: Echo) => args,
    spill,
  });

describe("result limits", () => {
  const config = { "results.inlineMaxBytes": 2000, "results.previewBytes": 400, "results.lineMaxChars": 50 };
  const { host, spillBase } = testHost([echo("echo"), echo("read", false)], { config, policy: {} });

  it("small results pass inline, untouched", async () => {
    const r = await host.call({ tool: "echo", args: { text: "hello\nworld" } });
    expect(r).toEqual({
      tool: "echo",
      isError: false,
      content: [{ type: "text", text: "hello\nworld" }],
      truncated: false,
      value: { text: "hello\nworld" },
    });
  });

  it("long lines are cut with a visible marker, and truncated says so", async () => {
    const r = await host.call({ tool: "echo", args: { text: `short\n${"x".repeat(80)}` } });
    expect(textOf(r)).toBe(`short\n${"x".repeat(50)}… [line cut: 30 more characters]`);
    expect(r.truncated).toBe(true);
    expect(r.spillPath).toBeUndefined();
  });

  it("paging facts from render pass through", async () => {
    const r = await host.call({ tool: "echo", args: { text: "page", next: 41 } });
    expect(r).toMatchObject({ truncated: true, nextOffset: 41 });
  });

  it("over the inline limit: full text spilled (0700 dir, 0600 file), head-and-tail preview, where and how to read", async () => {
    const full = lines(500);
    const r = await host.call({ tool: "echo", args: { text: full } });
    expect(r.isError).toBe(false);
    expect(r.truncated).toBe(true);
    const file = r.spillPath!;
    expect(readFileSync(file, "utf8")).toBe(full);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(path.dirname(path.dirname(file))).toBe(spillBase);
    // no temporary file left behind: the write was atomic
    expect(readdirSync(path.dirname(file)).filter((f) => f.includes("partial"))).toEqual([]);
    const t = textOf(r);
    expect(Buffer.byteLength(t)).toBeLessThanOrEqual(2000);
    expect(t).toMatch(
      /output too large to show inline: \d+ bytes, 500 lines \(results\.inlineMaxBytes is 2000\)/,
    );
    expect(t).toContain(file);
    expect(t).toMatch(/showing lines 1-12 and 489-500/);
    expect(t).toContain(`"offset":13`);
    expect(t).toContain("line 0000000001\n");
    expect(t).toContain("line 0000000500");
    expect(t).toMatch(/\[… \d+ bytes not shown \(lines 13-488\) …\]/);
    expect(t).not.toContain("line 0000000200");
  });

  it("a tool that opts out of spilling is cut at the inline limit, never spilled", async () => {
    const r = await host.call({ tool: "read", args: { text: lines(500) } });
    expect(r.spillPath).toBeUndefined();
    expect(r.truncated).toBe(true);
    const t = textOf(r);
    expect(t).toMatch(/output cut: showing the first \d+ of \d+ bytes .* this tool does not spill/);
    expect(Buffer.byteLength(t)).toBeLessThan(2000 + 300);
  });

  it("the same inputs give the same bytes (apart from the spill file's name)", async () => {
    const a = await host.call({ tool: "echo", args: { text: lines(300) } });
    const b = await host.call({ tool: "echo", args: { text: lines(300) } });
    expect(textOf(a).replaceAll(a.spillPath!, "F")).toBe(textOf(b).replaceAll(b.spillPath!, "F"));
  });
});

describe("preview and line cuts (pure)", () => {
  it("cutLines never splits a surrogate pair", () => {
    const { text, cut } = cutLines(`${"a".repeat(4)}😀😀`, 5);
    expect(cut).toBe(1);
    expect(text.startsWith("aaaa…")).toBe(true);
  });

  it("a single huge line gets a byte-bounded preview, cut on a UTF-8 boundary", () => {
    const buf = Buffer.from("é".repeat(5000));
    const p = buildPreview({
      head: buf,
      tail: buf,
      totalBytes: buf.length,
      newlines: 0,
      endsWithNewline: false,
      previewBytes: 101,
      lineMaxChars: 2000,
    });
    expect(p.head).not.toContain("\uFFFD");
    expect(p.tail).not.toContain("\uFFFD");
    expect(p.totalLines).toBe(1);
  });

  it("limits from config keep the preview within the inline limit", () => {
    expect(limitsFrom({ "results.inlineMaxBytes": 100, "results.previewBytes": 8192 }).previewBytes).toBe(
      100,
    );
  });
});

describe("raw limit and runaway streams", () => {
  it("readLimited returns the whole stream under the limit and fails past it, never a cut prefix", async () => {
    const { readLimited, OutputTooLargeError } = await import("../../src/execute/index.js");
    async function* chunks(n: number) {
      for (let i = 0; i < n; i++) yield "0123456789";
    }
    expect((await readLimited(chunks(3), 30)).toString()).toBe("0123456789".repeat(3));
    await expect(readLimited(chunks(4), 30)).rejects.toBeInstanceOf(OutputTooLargeError);
    await expect(readLimited(chunks(4), 30)).rejects.toThrow(/passed 30 bytes \(results\.rawMaxBytes\)/);
  });

  it("a stream past results.spillMaxBytes is stopped, the tool aborted, and the cut said", async () => {
    let aborted = false;
    const runaway = defineTool({
      name: "runaway",
      description: "Writes until stopped.",
      parameters: z.object({}),
      output: { schema: z.string(), render: (v: string) => v },
      execute: async (_a, ctx) => {
        ctx.signal.addEventListener("abort", () => {
          aborted = true;
        });
        for (let i = 0; i < 10_000 && !ctx.signal.aborted; i++)
          await ctx.stream!.write("x".repeat(99) + "\n");
        if (ctx.signal.aborted) throw new Error("stopped");
        return "done";
      },
    });
    const { host } = testHost([runaway], {
      config: { "results.inlineMaxBytes": 1000, "results.previewBytes": 200, "results.spillMaxBytes": 5000 },
    });
    const r = await host.call({ tool: "runaway", args: {} });
    expect(aborted).toBe(true);
    expect(r.isError).toBe(false);
    expect(r.truncated).toBe(true);
    expect(statSync(r.spillPath!).size).toBe(5000);
    expect(textOf(r)).toMatch(/output stopped after 5000 bytes: results\.spillMaxBytes is 5000/);
  });
});
