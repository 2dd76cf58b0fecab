import { closeSync, openSync, readSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/declare/index.js";
import { OutputTooLargeError } from "../../src/execute/index.js";
import { testHost, textOf } from "../helpers/host.js";

const noArgs = z.object({});
const text = { schema: z.string(), render: (v: string) => v };

const thrower = defineTool({
  name: "thrower",
  description: "Always throws.",
  parameters: noArgs,
  output: text,
  execute: () => {
    throw new Error("disk on fire");
  },
});
const throwsString = defineTool({
  name: "throws_string",
  description: "Throws a non-Error.",
  parameters: noArgs,
  output: text,
  execute: () => Promise.reject("plain string"),
});
let sawAbort = false;
const hangs = defineTool({
  name: "hangs",
  description: "Never finishes on its own.",
  parameters: noArgs,
  output: text,
  timeoutMs: 50,
  execute: (_args, ctx) =>
    new Promise<string>(() => {
      ctx.signal.addEventListener("abort", () => {
        sawAbort = true;
      });
    }),
});
const hangsStreaming = defineTool({
  name: "hangs_streaming",
  description: "Writes a little, then never finishes and ignores its signal.",
  parameters: noArgs,
  output: text,
  timeoutMs: 50,
  execute: async (_args, ctx) => {
    await ctx.stream?.write("partial line 1\npartial line 2\n");
    return new Promise<string>(() => {});
  },
});
const wrongShape = defineTool({
  name: "wrong_shape",
  description: "Returns a value that breaks its output schema.",
  parameters: noArgs,
  output: {
    schema: z.object({ status: z.enum(["open", "closed"]), count: z.number() }),
    render: (v: { status: string }) => v.status,
  },
  execute: () => ({ status: "pending", count: "three" }) as unknown as { status: "open"; count: number },
});
const badRender = defineTool({
  name: "bad_render",
  description: "Render throws.",
  parameters: noArgs,
  output: {
    schema: z.string(),
    render: () => {
      throw new Error("no template");
    },
  },
  execute: () => "x",
});
const tooRaw = defineTool({
  name: "too_raw",
  description: "Raw output over the limit where it must be parsed.",
  parameters: noArgs,
  output: text,
  execute: (_a, ctx) => {
    throw new OutputTooLargeError(ctx.config["results.rawMaxBytes"] as number, 30_000_000);
  },
});

const GiB = 1024 ** 3;
const MiB = 1024 * 1024;
const huge = defineTool({
  name: "huge",
  description: "Streams 1 GiB of output.",
  parameters: noArgs,
  output: { schema: z.object({ exit: z.number() }), render: (v: { exit: number }) => `exit code ${v.exit}` },
  execute: async (_a, ctx) => {
    // zero-cost chunks: one 1 MiB buffer of numbered-ish lines, written 1024 times
    const line = "0123456789abcdef".repeat(4).concat("\n");
    const chunk = Buffer.from(line.repeat(Math.floor(MiB / line.length)).padEnd(MiB, "x"));
    chunk[chunk.length - 1] = 10;
    for (let written = 0; written < GiB; written += chunk.length) await ctx.stream!.write(chunk);
    return { exit: 0 };
  },
});

describe("fault tests: the host never crashes", () => {
  const { host } = testHost([
    thrower,
    throwsString,
    hangs,
    hangsStreaming,
    wrongShape,
    badRender,
    tooRaw,
    huge,
  ]);

  it("a tool that throws gives an isError result with its message", async () => {
    const r = await host.call({ id: "c1", tool: "thrower", args: {} });
    expect(r).toMatchObject({ id: "c1", tool: "thrower", isError: true, error: { code: "tool_error" } });
    expect(textOf(r)).toBe("thrower failed: disk on fire");
    const s = await host.call({ tool: "throws_string", args: {} });
    expect(textOf(s)).toBe("throws_string failed: plain string");
  });

  it("a tool that hangs past its timeout is aborted through its signal", async () => {
    sawAbort = false;
    const r = await host.call({ tool: "hangs", args: {} });
    expect(r.error?.code).toBe("timeout");
    expect(textOf(r)).toMatch(/did not finish within 50 ms \(the tool's own timeoutMs\)/);
    expect(sawAbort).toBe(true);
  });

  it("a timed-out streaming tool keeps the output it wrote, marked partial", async () => {
    const r = await host.call({ tool: "hangs_streaming", args: {} });
    expect(r.error?.code).toBe("timeout");
    expect(r.truncated).toBe(true);
    expect(textOf(r)).toMatch(/partial output before it stopped:\]\npartial line 1\npartial line 2/);
  });

  it("a tool's own timeoutMs is capped by tools.maxTimeoutMs; the person's per-tool figure is not", async () => {
    const greedy = defineTool({
      name: "greedy",
      description: "declares a day",
      parameters: z.object({}),
      output: { schema: z.string(), render: (v) => v },
      timeoutMs: 86_400_000,
      execute: (_args, ctx) =>
        new Promise<string>((_, reject) =>
          ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)),
        ),
    });
    const capped = testHost([greedy], { config: { "tools.maxTimeoutMs": 30 } }).host;
    const r = await capped.call({ tool: "greedy", args: {} });
    expect(r.error?.code).toBe("timeout");
    expect(textOf(r)).toMatch(
      /within 30 ms \(tools\.maxTimeoutMs \(the tool's own timeoutMs is 86400000 ms\)\)/,
    );
    const chosen = testHost([greedy], {
      config: { "tools.maxTimeoutMs": 30, "tools.timeouts": { greedy: 60 } },
    }).host;
    expect(textOf(await chosen.call({ tool: "greedy", args: {} }))).toMatch(
      /within 60 ms \(tools\.timeouts\.greedy\)/,
    );
  });

  it("config overrides the tool's timeout per tool", async () => {
    const { host: h } = testHost([hangs], { config: { "tools.timeouts": { hangs: 20 } } });
    const r = await h.call({ tool: "hangs", args: {} });
    expect(textOf(r)).toMatch(/within 20 ms \(tools\.timeouts\.hangs\)/);
  });

  it("a wrong output shape is an invalid_output error that blames the tool, naming fields", async () => {
    const r = await host.call({ tool: "wrong_shape", args: {} });
    expect(r.error?.code).toBe("invalid_output");
    expect(textOf(r)).toMatch(/\/status/);
    expect(textOf(r)).toMatch(/\/count/);
    expect(textOf(r)).toMatch(/fault in the tool, not in your call/);
  });

  it("a render that throws is a tool_error", async () => {
    const r = await host.call({ tool: "bad_render", args: {} });
    expect(r.error?.code).toBe("tool_error");
    expect(textOf(r)).toMatch(/could not render its result: no template/);
  });

  it("raw output over the raw limit fails clearly instead of parsing a cut stream", async () => {
    const r = await host.call({ tool: "too_raw", args: {} });
    expect(r.error?.code).toBe("output_too_large");
    expect(textOf(r)).toMatch(/passed 20000000 bytes \(results\.rawMaxBytes\)/);
  });

  it("a turn's signal aborts its calls", async () => {
    const { host: h } = testHost([hangs], { config: { "tools.timeouts": { hangs: 60_000 } } });
    const controller = new AbortController();
    const pending = h.call({ tool: "hangs", args: {} }, { signal: controller.signal });
    controller.abort();
    const r = await pending;
    expect(r.error?.code).toBe("aborted");
  });

  it("1 GiB of streamed output spills to a file without holding it in memory", async () => {
    const before = process.memoryUsage();
    let peak = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss - before.rss, m.arrayBuffers - before.arrayBuffers);
    }, 5);
    const r = await host.call({ tool: "huge", args: {} });
    clearInterval(sampler);
    expect(r.isError).toBe(false);
    expect(r.truncated).toBe(true);
    expect(r.spillPath).toBeDefined();
    expect(statSync(r.spillPath!).size).toBe(GiB);
    const t = textOf(r);
    expect(t).toMatch(/output too large to show inline: 1073741824 bytes/);
    expect(t).toContain(r.spillPath!);
    expect(t).toMatch(/call read with \{"path":".*","offset":\d+,"limit":2000\}/);
    expect(t).toMatch(/bytes not shown/);
    expect(t.endsWith("exit code 0")).toBe(true);
    expect(Buffer.byteLength(t)).toBeLessThan(51_200);
    // far below the 1 GiB written: only the inline limit, a preview and write blocks are held
    expect(peak).toBeLessThan(256 * MiB);
    // the file is the output, byte for byte at both ends
    const fd = openSync(r.spillPath!, "r");
    const first = Buffer.alloc(65);
    readSync(fd, first, 0, 65, 0);
    closeSync(fd);
    expect(first.toString()).toBe(`${"0123456789abcdef".repeat(4)}\n`);
    expect(path.basename(r.spillPath!)).toMatch(/^\d{4}-huge\.txt$/);
    rmSync(r.spillPath!);
  });
});
