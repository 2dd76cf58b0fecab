import type { PromptMessage } from "../../declare/served.js";
import { type SkillArgument, substituteArguments } from "../../discover/arguments.js";

/**
 * An MCP prompt: a skill a user may invoke (its body is loaded only when a client asks for it, so
 * listing stays cheap), or a prompt a tools module declares (its messages built on request).
 */
export interface PromptSource {
  name: string;
  title?: string;
  description: string;
  /** The arguments it takes; absent: the one free-text `arguments` argument. */
  arguments?: readonly SkillArgument[];
  /** The body text, with `$name`, `$0`, `$ARGUMENTS` put in (a skill). */
  load?(): Promise<string> | string;
  /** The messages for the given values (a declared prompt); wins over `load`. */
  messages?(args: Readonly<Record<string, string>>): Promise<readonly PromptMessage[]>;
  /** Values to offer for an argument (completion/complete), before the prefix filter. */
  complete?(
    argument: string,
    value: string,
    context: Readonly<Record<string, string>>,
  ): Promise<readonly string[]> | readonly string[];
}

export type PromptList = () => Promise<readonly PromptSource[]> | readonly PromptSource[];

/** The one argument a prompt without declared arguments takes: free text (like `$ARGUMENTS`). */
export const PROMPT_ARGUMENT = "arguments";

const FREE_TEXT = [
  { name: PROMPT_ARGUMENT, description: "what to apply the skill to (optional)", required: false },
];

export function promptListing(prompts: readonly PromptSource[]) {
  return [...prompts]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((p) => ({
      name: p.name,
      ...(p.title !== undefined ? { title: p.title } : {}),
      description: p.description,
      arguments: p.arguments
        ? p.arguments.map((a) => ({
            name: a.name,
            ...(a.description !== undefined ? { description: a.description } : {}),
            required: a.required,
          }))
        : FREE_TEXT,
    }));
}

/** prompts/get: required arguments checked, then the messages. */
export async function promptMessages(prompt: PromptSource, args: Record<string, string> | undefined) {
  const given = args ?? {};
  const missing = (prompt.arguments ?? []).filter((a) => a.required && (given[a.name] ?? "").trim() === "");
  if (missing.length > 0)
    throw new MissingArgumentError(
      `prompt "${prompt.name}" needs ${missing.map((a) => `"${a.name}"`).join(", ")}; give ${missing.length === 1 ? "it" : "them"} in arguments`,
    );
  if (prompt.messages)
    return { description: prompt.description, messages: [...(await prompt.messages(given))] };
  const body = (await prompt.load?.()) ?? "";
  const declared = prompt.arguments ?? [];
  const text =
    declared.length > 0
      ? declared
          .map((a) => given[a.name] ?? "")
          .filter((v) => v !== "")
          .join(" ")
      : (given[PROMPT_ARGUMENT] ?? "");
  return {
    description: prompt.description,
    messages: [
      {
        role: "user" as const,
        content: { type: "text" as const, text: substituteArguments(body, declared, { named: given, text }) },
      },
    ],
  };
}

/** A prompts/get without an argument the prompt requires (InvalidParams). */
export class MissingArgumentError extends Error {
  override name = "MissingArgumentError";
}
