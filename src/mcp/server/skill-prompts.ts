import path from "node:path";
import { skillBody } from "../../discover/frontmatter.js";
import { readSkillFile, SKILL_BODY_MAX_BYTES } from "../../discover/read-body.js";
import type { SkillsView } from "../../discover/view.js";
import type { PromptSource } from "./prompts.js";

/** A skill body longer than this is cut in its prompt (with a note naming the file). */
export const PROMPT_BODY_MAX_BYTES = SKILL_BODY_MAX_BYTES;

/**
 * The skills a user may invoke, as MCP prompts. Prompts are user-controlled in MCP (a client shows
 * them as commands the user picks), so the filter is `userVisible`: a skill with
 * `user-invocable: false` is not offered, one with `disable-model-invocation: true` is.
 */
export function skillPrompts(view: SkillsView): PromptSource[] {
  return view.skills
    .filter((s) => s.userVisible)
    .map((s) => {
      // arguments that do not parse are a validation issue; the prompt then takes free text
      const args = s.arguments;
      return {
        name: s.name,
        description: s.description,
        ...(args
          ? { arguments: args, complete: (name: string) => args.find((a) => a.name === name)?.values ?? [] }
          : {}),
        load: () => loadPromptText(s.path, s.form === "bundle" ? path.dirname(s.path) : null),
      };
    });
}

/** The body of a skill file for prompts/get, read as the skill tool reads it (see readSkillFile). */
export async function loadPromptText(file: string, dir: string | null): Promise<string> {
  const read = await readSkillFile(file, PROMPT_BODY_MAX_BYTES);
  let text = skillBody(read.text);
  if (read.cut)
    text += `\n[skill cut at ${PROMPT_BODY_MAX_BYTES} of ${read.size} bytes; the whole file is ${file}]`;
  return dir === null ? text : `Base directory for this skill: ${dir}\n\n${text}`;
}
