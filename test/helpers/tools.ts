import { z } from "zod";
import { defineTool } from "../../src/declare/index.js";

/** A tool with every host-only field set to a recognisable sentinel. */
export const SENTINEL_TIMEOUT = 98_765;
export const SENTINEL_TEXT = "HOST-ONLY-SENTINEL";

export function sentinelTool(name = "sentinel_tool") {
  return defineTool({
    name,
    description: "A test tool whose host-only fields carry sentinels.",
    parameters: z.object({
      // parameter names that look like host fields must still render: they are the model's
      output: z.string().describe("a parameter called output"),
      timeout: z.number().optional(),
    }),
    output: { schema: z.object({ ok: z.boolean() }), render: (v) => `${SENTINEL_TEXT} ${v.ok}` },
    execute: () => ({ ok: true }),
    timeoutMs: SENTINEL_TIMEOUT,
    concurrencySafe: true,
    display: { title: SENTINEL_TEXT, summarize: () => SENTINEL_TEXT },
    permission: { action: SENTINEL_TEXT, patterns: () => [SENTINEL_TEXT] },
    selection: { shouldSelect: [{ task: SENTINEL_TEXT }], shouldNotSelect: [{ task: SENTINEL_TEXT }] },
    spill: false,
    namespace: SENTINEL_TEXT,
  });
}

export function simpleTool(name: string, description = `the ${name} tool`) {
  return defineTool({
    name,
    description,
    parameters: z.object({ q: z.string() }),
    output: { schema: z.string(), render: (v: string) => v },
    execute: ({ q }) => q,
  });
}
