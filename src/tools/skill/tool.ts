import path from "node:path";
import { defineTool } from "../../declare/define-tool.js";
import type { Tool } from "../../declare/types.js";
import { skillBody } from "../../discover/frontmatter.js";
import { listBundle, readSkillFile } from "../../discover/read-body.js";
import type { SkillsView } from "../../discover/view.js";
import { nearest } from "../../util/nearest.js";
import { skillOutput, skillParameters } from "./schema.gen.js";
import type { SkillArgs, SkillToolValue } from "./schema.js";

export type { SkillToolValue } from "./schema.js";

/** Bundled files listed by name; the rest are counted. */
export const SKILL_FILES_MAX = 50;

export const SKILL_TOOL_DESCRIPTION =
  "Load a skill by name: returns its instructions (the SKILL.md body) and lists the files bundled " +
  "with it. Use it when the task matches a skill from the available skills list; not for reading " +
  "arbitrary files.";

/** Where the tool looks skills up: the current skills view of the caller's scope. */
export type SkillViewSource = () => Promise<SkillsView>;

export function skillTool(source: SkillViewSource): Tool<SkillArgs, SkillToolValue> {
  return defineTool({
    name: "skill",
    description: SKILL_TOOL_DESCRIPTION,
    parameters: skillParameters,
    output: { schema: skillOutput, render: renderSkillResult },
    concurrencySafe: true,
    permission: { action: "read", patterns: ({ name }) => [name] },
    annotations: { title: "Skill", readOnlyHint: true, openWorldHint: false },
    display: { title: "Skill", summarize: ({ name }) => `load skill ${name}` },
    execute: async ({ name }) => loadSkill(await source(), name),
  });
}

/** Loads a skill the model may invoke; anything else is an error that says why. */
export async function loadSkill(view: SkillsView, name: string): Promise<SkillToolValue> {
  const listing = view.skills.find((s) => s.name === name);
  if (!listing) {
    const visible = view.skills.filter((s) => s.modelVisible).map((s) => s.name);
    const near = nearest(name, visible);
    const hint = near.length > 0 ? `; did you mean ${near.map((n) => `"${n}"`).join(" or ")}?` : "";
    throw new Error(`no skill named "${name}"${hint} (use a name from the available skills list)`);
  }
  if (!listing.modelVisible) {
    const why = listing.disabled
      ? "it is disabled in this configuration"
      : "its model invocation is disabled (disable-model-invocation); only a user can invoke it";
    throw new Error(`skill "${name}" cannot be loaded by the model: ${why}`);
  }
  const file = await readSkillFile(listing.path);
  const dir = listing.form === "bundle" ? path.dirname(listing.path) : null;
  const bundle = dir ? await listBundle(dir, listing.path, SKILL_FILES_MAX) : undefined;
  const value: SkillToolValue = {
    name,
    path: listing.path,
    dir,
    body: skillBody(file.text),
    files: bundle?.files ?? [],
    moreFiles: bundle?.more ?? 0,
  };
  if (bundle?.partial) value.moreUncounted = true;
  if (file.cut) value.cutAtBytes = file.size;
  return value;
}

export function renderSkillResult(value: SkillToolValue): string {
  const lines = [`<skill name="${value.name}" path="${value.path}">`, value.body.trimEnd()];
  if (value.cutAtBytes !== undefined)
    lines.push(`[skill cut: its file has ${value.cutAtBytes} bytes; read ${value.path} for the rest]`);
  lines.push("</skill>");
  if (value.dir !== null && value.files.length > 0) {
    lines.push("", `Bundled files (relative to ${value.dir}):`, ...value.files.map((f) => `- ${f}`));
    if (value.moreFiles > 0 || value.moreUncounted)
      lines.push(`… and ${value.moreUncounted ? "at least " : ""}${value.moreFiles} more files not listed`);
  }
  return `${lines.join("\n")}\n`;
}
