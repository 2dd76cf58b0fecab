import { type Dirent, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { parseFrontmatter } from "./frontmatter.js";
import { FRONTMATTER_MAX_BYTES, readHead } from "./read-head.js";
import type { Skill, SkillForm, SkillProblem, SkillRoot } from "./types.js";
import { checkFrontmatter, type RuleIssue } from "./validate.js";

/** What one top-level entry of a root (a bundle dir or a flat .md file) yields. */
export interface EntryResult {
  skill?: Skill;
  problem?: SkillProblem;
}

/** The state of one root: each top-level entry name -> what it yields; plus root-level problems. */
export interface RootState {
  root: SkillRoot;
  entries: Map<string, EntryResult>;
  problems: SkillProblem[];
}

export const BUNDLE_FILES = ["SKILL.md", "skill.md"];

/** Entries read between two turns of the event loop. */
const YIELD_EVERY = 200;

/**
 * Reads one root one level deep. A missing root is empty, not an error. `onBatch` hears how
 * many entries were read so far, of how many, at each breath (progress for a huge root).
 */
export async function scanRoot(
  root: SkillRoot,
  onBatch?: (read: number, total: number) => void,
): Promise<RootState> {
  const state: RootState = { root, entries: new Map(), problems: [] };
  let dirents: Dirent[];
  try {
    dirents = readdirSync(root.dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return state;
    const why =
      code === "ENOTDIR"
        ? "is not a directory"
        : code === "ELOOP"
          ? "is a symlink loop"
          : `cannot be read (${code ?? (error as Error).message})`;
    state.problems.push({ path: root.dir, errors: [`root: the skill root ${why}`] });
    return state;
  }
  const names = dirents.map((d) => d.name).filter(isCandidateName);
  const byName = new Map(dirents.map((d) => [d.name, d]));
  for (let i = 0; i < names.length; i++) {
    // let the event loop breathe between batches of synchronous reads
    if (i > 0 && i % YIELD_EVERY === 0) {
      onBatch?.(i, names.length);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const name = names[i]!;
    const result = scanEntrySafely(root, name, byName.get(name));
    if (result) state.entries.set(name, result);
  }
  return state;
}

/** Hidden entries are never skills; neither are editors' temporary files. */
export function isCandidateName(name: string): boolean {
  return !name.startsWith(".") && !name.endsWith("~");
}

/**
 * Reads one top-level entry of a root: `<name>/SKILL.md` (or `skill.md`) or `<name>.md`.
 * Symlinked bundle dirs are followed (one level only, so a loop cannot recurse; a looping link
 * fails its stat and is reported). Undefined: the entry is not a skill candidate.
 */
export async function scanEntry(
  root: SkillRoot,
  name: string,
  dirent?: Dirent,
): Promise<EntryResult | undefined> {
  return scanEntrySafely(root, name, dirent);
}

/** One entry's failure of any kind is that entry's problem: it never hides the other skills. */
function scanEntrySafely(root: SkillRoot, name: string, dirent?: Dirent): EntryResult | undefined {
  try {
    return scanEntrySync(root, name, dirent);
  } catch (error) {
    return {
      problem: {
        path: path.join(root.dir, name),
        errors: [`file: could not be read as a skill: ${(error as Error).message}`],
      },
    };
  }
}

function scanEntrySync(root: SkillRoot, name: string, dirent?: Dirent): EntryResult | undefined {
  const full = path.join(root.dir, name);
  let kind: "dir" | "file" | undefined;
  if (dirent && !dirent.isSymbolicLink()) {
    kind = dirent.isDirectory() ? "dir" : dirent.isFile() ? "file" : undefined;
  } else {
    try {
      const s = statSync(full);
      kind = s.isDirectory() ? "dir" : s.isFile() ? "file" : undefined;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" && !dirent) return undefined;
      if (code === "ENOENT") {
        // a dangling link: worth saying only if it looks like a skill
        return {
          problem: { path: full, errors: ["symlink: points to nothing (dangling link); fix or remove it"] },
        };
      }
      if (code === "ELOOP") {
        return {
          problem: { path: full, errors: ["symlink: the link loops back on itself; fix or remove it"] },
        };
      }
      return { problem: { path: full, errors: [`file: cannot be read (${code})`] } };
    }
  }
  if (kind === "file") {
    if (!name.toLowerCase().endsWith(".md")) return undefined;
    return loadSkill(root, full, name.slice(0, -3), "flat", root.dir);
  }
  if (kind !== "dir") return undefined;
  for (const file of BUNDLE_FILES) {
    const result = loadSkill(root, path.join(full, file), name, "bundle", full);
    if (result) return result;
  }
  return undefined;
}

function loadSkill(
  root: SkillRoot,
  file: string,
  expectedName: string,
  form: SkillForm,
  dir: string,
): EntryResult | undefined {
  let head: ReturnType<typeof readHead>;
  try {
    head = readHead(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || (code === "ENOTDIR" && form === "bundle")) return undefined;
    if (code === "EISDIR") return undefined;
    return {
      problem: { path: file, errors: [`file: cannot be read (${code ?? (error as Error).message})`] },
    };
  }
  if (!head.ok) return { problem: { path: file, errors: [head.error] } };
  const parsed = parseFrontmatter(head.text);
  if (!parsed.ok) {
    const error =
      !head.complete && parsed.error.includes("never closed")
        ? `frontmatter: line 1: no closing --- within the first ${FRONTMATTER_MAX_BYTES / 1024} KiB (close the frontmatter with a --- line)`
        : parsed.error;
    return { problem: { path: file, errors: [error] } };
  }
  const checked = checkFrontmatter(parsed.data, parsed.lines, expectedName, form);
  const blocking = checked.issues.filter((i) => i.blocking);
  if (blocking.length > 0) {
    return { problem: { path: file, errors: checked.issues.map((i) => formatIssue(i, "error")) } };
  }
  const warnings = checked.issues.map((i) => formatIssue(i, "warning"));
  const skill: Skill = Object.freeze({
    name: checked.name,
    description: checked.description,
    root: root.dir,
    rank: root.rank,
    form,
    path: file,
    dir,
    frontmatter: Object.freeze(parsed.data),
    modelInvocable: checked.modelInvocable,
    userInvocable: checked.userInvocable,
    warnings: Object.freeze(warnings),
  });
  const result: EntryResult = { skill };
  if (warnings.length > 0) result.problem = { path: file, errors: warnings };
  return result;
}

export function formatIssue(issue: RuleIssue, severity: "error" | "warning"): string {
  const prefix = severity === "warning" ? "warning: " : "";
  const rule = issue.rule === "unknown-field" ? "unknown field" : issue.rule;
  return `${prefix}line ${issue.line}: ${rule}: ${issue.message}`;
}

/**
 * A root's registry entries and problems. Entries in name order; two entries claiming the same
 * skill name in one root: the first in name order loads (a bundle `x/` before a flat `x.md`), the
 * other is reported.
 */
export function rootView(state: RootState): { skills: Skill[]; problems: SkillProblem[] } {
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [...state.problems];
  const taken = new Map<string, string>();
  for (const key of [...state.entries.keys()].sort(byCodePoint)) {
    const result = state.entries.get(key)!;
    if (result.problem) problems.push(result.problem);
    const skill = result.skill;
    if (!skill) continue;
    const first = taken.get(skill.name);
    if (first !== undefined) {
      problems.push({
        path: skill.path,
        errors: [
          `name: "${skill.name}" is already used by ${first} in the same root; this one is not loaded (rename one)`,
        ],
      });
      continue;
    }
    taken.set(skill.name, skill.path);
    skills.push(skill);
  }
  return { skills, problems };
}

export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
