import type { Config } from "../config/index.js";
import { deferConfigFrom } from "../defer/index.js";
import type { SessionDeferConfig } from "./deferral.js";
import { markRulesOf } from "./marks.js";

/** The built-in skill tool's name (src/tools/skill/tool.ts). */
const SKILL_TOOL = "skill";
/** One object, so a plan compares it by identity (sameDeferConfig). */
const SKILL_HELD: Readonly<Record<string, string>> = Object.freeze({
  [SKILL_TOOL]: "the skill listing (it tells the model to load skills with this tool)",
});

/**
 * The defer.* keys and the tools' marks, with the skill tool held resident while the system text
 * lists skills: that catalog tells the model to load skills with it, so deferring it (marked by
 * defer.tools) would point at a tool the model cannot see. Held, not added to defer.resident: the
 * reports say why, and no one set that key. `skillsListed` is asked only when it matters.
 */
export async function sessionDeferConfig(
  config: Config,
  skillsListed: () => Promise<boolean>,
): Promise<SessionDeferConfig> {
  const out = { ...deferConfigFrom(config), marks: markRulesOf(config) };
  if (out.resident.includes(SKILL_TOOL) || !(await skillsListed())) return out;
  return { ...out, held: SKILL_HELD };
}
