// A skill's `arguments` frontmatter and their substitution into its body, as Claude Code does it:
// `arguments: issue branch` (or a list) names them, and the body uses `$issue`, `$0`,
// `$ARGUMENTS[1]` or the whole text `$ARGUMENTS`. toolplane also takes a list of mappings
// (`- {name: env, description: ..., required: true, values: [dev, prod]}`), which MCP clients show
// and `completion/complete` offers values from.

export interface SkillArgument {
  name: string;
  description?: string;
  required: boolean;
  /** Values a client may offer (completion/complete). */
  values?: readonly string[];
}

/** Most arguments a skill may declare. */
export const ARGUMENTS_MAX = 32;
const ARG_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Names the body already uses for something else. */
const RESERVED = new Set(["ARGUMENTS"]);

/** The declared arguments, or what is wrong with the field (absent: none declared). */
export function parseSkillArguments(
  raw: unknown,
): { ok: true; args: SkillArgument[] } | { ok: false; error: string } {
  if (raw === undefined || raw === null) return { ok: true, args: [] };
  const items: unknown[] =
    typeof raw === "string" ? raw.split(/[\s,]+/).filter(Boolean) : Array.isArray(raw) ? raw : [];
  if (typeof raw !== "string" && !Array.isArray(raw))
    return {
      ok: false,
      error:
        "must be names separated by spaces, or a list of names or of {name, description, required, values}",
    };
  if (items.length > ARGUMENTS_MAX)
    return { ok: false, error: `declares ${items.length} arguments, over the ${ARGUMENTS_MAX} limit` };
  const args: SkillArgument[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const arg = oneArgument(item);
    if (typeof arg === "string") return { ok: false, error: arg };
    if (seen.has(arg.name)) return { ok: false, error: `names "${arg.name}" twice` };
    seen.add(arg.name);
    args.push(arg);
  }
  return { ok: true, args };
}

function oneArgument(item: unknown): SkillArgument | string {
  const named = (name: unknown): string | undefined => {
    if (typeof name !== "string" || !ARG_NAME.test(name))
      return `argument name ${JSON.stringify(name)} must be letters, digits and _ (not starting with a digit), as $name uses it`;
    if (RESERVED.has(name)) return `"${name}" is reserved ($ARGUMENTS is the whole text)`;
    return undefined;
  };
  if (typeof item === "string") return named(item) ?? { name: item, required: false };
  if (!item || typeof item !== "object" || Array.isArray(item))
    return "each argument must be a name or a mapping {name, description, required, values}";
  const m = item as Record<string, unknown>;
  const bad = named(m.name);
  if (bad) return bad;
  const arg: SkillArgument = { name: m.name as string, required: false };
  if (m.description !== undefined) {
    if (typeof m.description !== "string") return `argument "${arg.name}": description must be a string`;
    arg.description = m.description;
  }
  if (m.required !== undefined) {
    if (typeof m.required !== "boolean") return `argument "${arg.name}": required must be true or false`;
    arg.required = m.required;
  }
  if (m.values !== undefined) {
    if (!Array.isArray(m.values) || !m.values.every((v) => typeof v === "string" || typeof v === "number"))
      return `argument "${arg.name}": values must be a list of strings`;
    arg.values = m.values.map(String);
  }
  for (const key of Object.keys(m))
    if (!["name", "description", "required", "values"].includes(key))
      return `argument "${arg.name}": unknown key "${key}" (use name, description, required, values)`;
  return arg;
}

/** Splits free text into positional values, honouring "double" and 'single' quotes (as a shell would). */
export function splitArguments(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? "");
  return out;
}

/**
 * The body with the values put in: `$ARGUMENTS` the whole text, `$ARGUMENTS[N]` and `$N` the Nth
 * value (0-based), `$name` a declared argument's value. A placeholder with nothing to put in stays
 * as written. When the body uses no placeholder and a value was given, the text is appended as
 * `ARGUMENTS: ...` so it is never lost.
 */
export function substituteArguments(
  body: string,
  declared: readonly SkillArgument[],
  values: { named: Readonly<Record<string, string>>; text: string },
): string {
  const positional =
    declared.length > 0 ? declared.map((a) => values.named[a.name] ?? "") : splitArguments(values.text);
  const names = new Set(declared.map((a) => a.name));
  let used = false;
  // one pass, so a value that contains `$1` or `$name` is never substituted again
  const out = body.replace(
    /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (all, idx, pos, name) => {
      if (idx !== undefined || pos !== undefined) {
        const v = positional[Number(idx ?? pos)];
        if (v === undefined) return all;
        used = true;
        return v;
      }
      if (name !== undefined) {
        if (!names.has(name)) return all;
        used = true;
        return values.named[name] ?? "";
      }
      used = true;
      return values.text;
    },
  );
  const text = values.text.trim();
  return used || text === "" ? out : `${out.trimEnd()}\n\nARGUMENTS: ${text}`;
}
