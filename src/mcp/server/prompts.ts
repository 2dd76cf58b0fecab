/**
 * A skill a user may invoke, as an MCP prompt. Discovery supplies these; the body is loaded only
 * when a client asks for the prompt, so listing stays cheap.
 */
export interface PromptSource {
  name: string;
  description: string;
  load(): Promise<string> | string;
}

export type PromptList = () => Promise<readonly PromptSource[]> | readonly PromptSource[];

/** The one argument a skill prompt takes: free text appended after the body (like `$ARGUMENTS`). */
export const PROMPT_ARGUMENT = "arguments";

export function promptListing(prompts: readonly PromptSource[]) {
  return [...prompts]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((p) => ({
      name: p.name,
      description: p.description,
      arguments: [
        { name: PROMPT_ARGUMENT, description: "what to apply the skill to (optional)", required: false },
      ],
    }));
}

export async function promptMessages(prompt: PromptSource, args: Record<string, string> | undefined) {
  const body = await prompt.load();
  const extra = args?.[PROMPT_ARGUMENT]?.trim();
  const text = extra ? `${body.trimEnd()}\n\nARGUMENTS: ${extra}` : body;
  return {
    description: prompt.description,
    messages: [{ role: "user" as const, content: { type: "text" as const, text } }],
  };
}
