import { existsSync, realpathSync } from "node:fs";
import path from "node:path";

export interface ResolvedPath {
  /** The path as the call named it, made absolute against cwd (lexically: `..` folded). */
  absolute: string;
  /** After following symlinks as far as the path exists (the rest appended as written). */
  real: string;
  /** Whether `real` is the workspace or below it. */
  inside: boolean;
}

export class PathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PathError";
  }
}

/**
 * Resolves a path argument the way the filesystem will: `..` folded, symlinks followed (for the
 * part that exists), and case folded where the filesystem ignores case. Matching rules against
 * anything less lets `a/../../etc` or a symlink walk out of the workspace.
 *
 * Names are taken byte-exactly as given: a file listed with a decomposed é (NFD, as macOS writes
 * names) is opened by that name. Only when no such path exists is the other Unicode form tried
 * (NFC, then NFD), for a name the model re-composed. Rules match NFC forms (evaluate.ts).
 */
export function resolvePath(
  input: string,
  cwd: string,
  workspace: string,
  /** The workspace's real path, when the caller already has it. */
  workspaceReal?: string,
): ResolvedPath {
  if (typeof input !== "string" || input === "")
    throw new PathError("the path is empty: give a file or folder path");
  if (input.includes("\0")) throw new PathError("the path contains a NUL byte: give a plain file path");
  const absolute = existingForm(path.resolve(cwd, input));
  // `link/../x` is x beside the link's target to the kernel, not x here: follow before folding
  const real = /(^|[\\/])\.\.([\\/]|$)/.test(input)
    ? physicalPath(path.isAbsolute(input) ? input : `${cwd}${path.sep}${input}`)
    : realpathOfLongestPrefix(absolute);
  const root = workspaceReal ?? realpathOfLongestPrefix(path.resolve(workspace));
  return { absolute, real, inside: isInside(real, root) };
}

/** The path as written when it exists, else its NFC or NFD form when one of those does. */
function existingForm(absolute: string): string {
  // printable ASCII has one form only (the common case: no lookup)
  if (/^[ -~]*$/.test(absolute) || existsSync(absolute)) return absolute;
  for (const form of ["NFC", "NFD"] as const) {
    const other = absolute.normalize(form);
    if (other !== absolute && existsSync(other)) return other;
  }
  return absolute;
}

export function isInside(candidate: string, root: string): boolean {
  const a = foldCase(candidate, root);
  const b = foldCase(root, root);
  // the common case without path.relative (a search checks thousands of paths): both already
  // normal (no "." or ".." segment, no empty one), and the candidate the root or below it
  if (a === b || (a.startsWith(b) && a[b.length] === path.sep && !b.endsWith(path.sep))) {
    // (a first name starting ".." is left to path.relative too, which has always said outside)
    const below = a.slice(b.length + 1);
    const normal = !DOT_SEGMENT.test(a) && !DOT_SEGMENT.test(b) && !a.includes(`${path.sep}${path.sep}`);
    if (normal && !below.startsWith("..")) return true;
  }
  const rel = path.relative(b, a);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** A "." or ".." segment, with either separator: such a path is not normal, path.relative decides it. */
const DOT_SEGMENT = /(^|[\\/])\.\.?([\\/]|$)/;

/** The path as the kernel walks it: each `..` taken from the real folder before it. */
function physicalPath(joined: string): string {
  const parts = joined.split(path.sep);
  let current = path.parse(joined).root;
  for (const part of parts) {
    if (part === "" || part === ".") continue;
    if (part === "..") current = path.dirname(realpathOfLongestPrefix(current));
    else current = current.endsWith(path.sep) ? current + part : current + path.sep + part;
  }
  return realpathOfLongestPrefix(current);
}

/** realpath of the deepest existing ancestor, with the missing tail appended unchanged. */
export function realpathOfLongestPrefix(absolute: string): string {
  let head = absolute;
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync.native(head), ...tail.reverse());
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return absolute;
      tail.push(path.basename(head));
      head = parent;
    }
  }
}

const caseInsensitive = new Map<string, boolean>();

/** Whether the filesystem holding `root` ignores case (macOS, Windows defaults); probed once per root. */
export function isCaseInsensitiveAt(root: string): boolean {
  let insensitive = caseInsensitive.get(root);
  if (insensitive === undefined) {
    insensitive = probeCaseInsensitive(root);
    caseInsensitive.set(root, insensitive);
  }
  return insensitive;
}

function foldCase(p: string, root: string): string {
  return isCaseInsensitiveAt(root) ? p.toLowerCase() : p;
}

function probeCaseInsensitive(root: string): boolean {
  const upper = root.toUpperCase();
  const lower = root.toLowerCase();
  if (upper === lower) return process.platform === "win32" || process.platform === "darwin";
  try {
    return realpathSync.native(upper) !== "" && realpathSync.native(lower) !== "";
  } catch {
    return false;
  }
}
