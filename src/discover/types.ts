/** Where a skill was found: a bundle directory `<root>/<name>/SKILL.md` or a flat `<root>/<name>.md`. */
export type SkillForm = "bundle" | "flat";

/** One skill root: a directory scanned one level deep. Lower rank wins a name conflict. */
export interface SkillRoot {
  /** Provider name in the skill registry, e.g. `skills:project`. */
  provider: string;
  /** Absolute directory. */
  dir: string;
  rank: number;
}

/** A discovered skill: the registry entry. */
export interface Skill {
  readonly name: string;
  readonly description: string;
  /** The root directory it was found in. */
  readonly root: string;
  readonly rank: number;
  readonly form: SkillForm;
  /** The SKILL.md (or flat .md) file, as found under the root (symlinks not resolved). */
  readonly path: string;
  /** The bundle directory (bundle form) or the root (flat form). */
  readonly dir: string;
  /** Every frontmatter field as written, unknown ones included. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** After the visibility flags: may the model see and invoke it? */
  readonly modelInvocable: boolean;
  /** After the visibility flags: may a user invoke it (a slash command)? */
  readonly userInvocable: boolean;
  /** Rules the skill breaks that discovery tolerates. */
  readonly warnings: readonly string[];
}

/** A file (or directory) that did not load cleanly; `errors` name file, line and rule. */
export interface SkillProblem {
  path: string;
  errors: string[];
}
