import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { parseFrontmatter } from "./frontmatter.js";
import { FRONTMATTER_MAX_BYTES, readHead } from "./read-head.js";
import { BUNDLE_FILES, byCodePoint, formatIssue, isCandidateName } from "./scan.js";
import type { SkillForm } from "./types.js";
import { checkFrontmatter } from "./validate.js";

/** One `skills validate` result: strict, every broken rule listed. */
export interface SkillValidation {
  path: string;
  valid: boolean;
  errors: string[];
}

/**
 * Strict validation of skill files and directories. A path may be a SKILL.md, a flat `<name>.md`,
 * a bundle directory, or a root directory (each skill in it is validated, one level deep).
 */
export async function validateSkillPaths(paths: readonly string[], cwd: string): Promise<SkillValidation[]> {
  const out: SkillValidation[] = [];
  for (const p of paths) out.push(...(await validatePath(path.resolve(cwd, p))));
  return out;
}

async function validatePath(target: string): Promise<SkillValidation[]> {
  let s: Awaited<ReturnType<typeof stat>>;
  try {
    s = await stat(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return [invalid(target, code === "ENOENT" ? "path: does not exist" : `path: cannot be read (${code})`)];
  }
  if (s.isFile()) {
    const base = path.basename(target);
    if (BUNDLE_FILES.includes(base))
      return [await validateFile(target, path.basename(path.dirname(target)), "bundle")];
    if (!base.toLowerCase().endsWith(".md"))
      return [invalid(target, "path: a skill file is SKILL.md or <name>.md")];
    return [await validateFile(target, base.slice(0, -3), "flat")];
  }
  if (!s.isDirectory()) return [invalid(target, "path: not a file or directory")];
  for (const file of BUNDLE_FILES) {
    const bundled = await isFile(path.join(target, file));
    if (bundled) return [await validateFile(path.join(target, file), path.basename(target), "bundle")];
  }
  // a root: validate each skill one level down
  const results: SkillValidation[] = [];
  const names = (await readdir(target)).filter(isCandidateName).sort(byCodePoint);
  for (const name of names) {
    const full = path.join(target, name);
    const inner = await stat(full).catch(() => undefined);
    if (inner?.isDirectory()) {
      const file = await firstBundleFile(full);
      if (file) results.push(await validateFile(file, name, "bundle"));
    } else if (inner?.isFile() && name.toLowerCase().endsWith(".md")) {
      results.push(await validateFile(full, name.slice(0, -3), "flat"));
    }
  }
  if (results.length === 0) {
    return [
      invalid(
        target,
        "path: no SKILL.md here, and no skills one level down (a skill is <name>/SKILL.md or <name>.md)",
      ),
    ];
  }
  return results;
}

async function validateFile(file: string, expectedName: string, form: SkillForm): Promise<SkillValidation> {
  const errors: string[] = [];
  if (form === "bundle" && path.basename(file) !== "SKILL.md") {
    errors.push("file: the Agent Skills format names the file SKILL.md (upper case)");
  }
  let head: ReturnType<typeof readHead>;
  try {
    head = readHead(file);
  } catch (error) {
    return invalid(file, `file: cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  if (!head.ok) return invalid(file, head.error);
  const parsed = parseFrontmatter(head.text);
  if (!parsed.ok) {
    const error =
      !head.complete && parsed.error.includes("never closed")
        ? `frontmatter: line 1: no closing --- within the first ${FRONTMATTER_MAX_BYTES / 1024} KiB`
        : parsed.error;
    return invalid(file, error);
  }
  const checked = checkFrontmatter(parsed.data, parsed.lines, expectedName, form);
  errors.push(...checked.issues.map((i) => formatIssue(i, "error")));
  return { path: file, valid: errors.length === 0, errors };
}

async function firstBundleFile(dir: string): Promise<string | undefined> {
  for (const file of BUNDLE_FILES) if (await isFile(path.join(dir, file))) return path.join(dir, file);
  return undefined;
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}

function invalid(p: string, error: string): SkillValidation {
  return { path: p, valid: false, errors: [error] };
}
