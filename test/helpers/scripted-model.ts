import { MockLanguageModelV3 } from "ai/test";

// the model spec types, read off the mock (their package, @ai-sdk/provider, is not ours to import)
type CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** What the scripted model does in one step: call a tool, or answer with text (and stop). */
export type Step = { tool: string; input: object; id?: string } | { text: string };

/** The output of the tool result the model was last given (`{type: "text" | "error-text", value}`). */
export type SeenOutput = { type: string; value: unknown } | undefined;

/**
 * An AI SDK mock model that takes one scripted step per generation: `next` sees the last tool
 * result's output (undefined on the first step) and says what to do; undefined stops with "done".
 */
export function scriptedModel(next: (seen: SeenOutput, step: number) => Step | undefined) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options: CallOptions): Promise<GenerateResult> => {
      const last = options.prompt.at(-1);
      let seen: SeenOutput;
      if (last?.role === "tool") {
        const part = last.content[0];
        seen = part?.type === "tool-result" ? (part.output as SeenOutput) : undefined;
      }
      const n = step++;
      const s = next(seen, n) ?? { text: "done" };
      if ("text" in s) {
        return {
          content: [{ type: "text", text: s.text }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        };
      }
      return {
        content: [
          {
            type: "tool-call",
            toolCallId: s.id ?? `call-${n + 1}`,
            toolName: s.tool,
            input: JSON.stringify(s.input),
          },
        ],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      };
    },
  });
}
