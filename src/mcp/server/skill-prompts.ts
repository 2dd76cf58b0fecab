import { constants } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { skillBody } from "../../discover/frontmatter.js";
import type { SkillsView } from "../../discover/view.js";
import type { PromptSource } from "./prompts.js";

/** A skill body longer than this is cut in its prompt (with a note naming the file). */
export const PROMPT_BODY_MAX_BYTES = 1024 * 1024;

/**
 * The skills a user may invoke, as MCP prompts. Prompts are user-controlled in MCP (a client shows
 * them as commands the user picks), so the filter is `userVisible`: a skill with
 * `user-invocable: false` is not offered, one with `disable-model-invocation: true` is.
 */
export function skillPrompts(view: SkillsView): PromptSource[] {
  return view.skills
    .filter((s) => s.userVisible)
    .map((s) => ({
      name: s.name,
      description: s.description,
      load: () => loadPromptText(s.path, s.form === "bundle" ? path.dirname(s.path) : null),
    }));
}

/**
 * The body of a skill file for prompts/get. Opened non-blocking and checked to be a regular file
 * (a FIFO put in place of SKILL.md must not hang the server), and read up to PROMPT_BODY_MAX_BYTES.
 */
export async function loadPromptText(file: string, dir: string | null): Promise<string> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error(`${file} is not a regular file`);
    const size = Math.min(info.size, PROMPT_BODY_MAX_BYTES);
    const buf = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buf, 0, size, 0);
    let text = skillBody(buf.subarray(0, bytesRead).toString("utf8"));
    if (info.size > PROMPT_BODY_MAX_BYTES) {
      text += `\n[skill cut at ${PROMPT_BODY_MAX_BYTES} of ${info.size} bytes; the whole file is ${file}]`;
    }
    return dir === null ? text : `Base directory for this skill: ${dir}\n\n${text}`;
  } finally {
    await handle.close();
  }
}
