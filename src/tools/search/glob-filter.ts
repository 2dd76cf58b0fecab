import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileToolError } from "../shared/errors.js";

/** ripgrep arguments that keep only paths matching a glob, and what to clean up after the run. */
export interface GlobFilter {
  args: string[];
  dispose(): Promise<void>;
}

const NONE: GlobFilter = { args: [], dispose: async () => {} };

/**
 * Passes a glob to rg as a filter on top of its ignore rules. `rg --glob` would not do: a glob
 * given that way overrides every ignore rule, so `*.txt` listed .gitignore'd files and `**`
 * searched `.git`. Two filters that keep the ignore rules instead:
 * - a glob without "/" matches file names, which is what an rg file type does: `--type-add`
 *   then `--type` (or `--type-not` for `!glob`) filters after the ignore rules, exactly (unless
 *   the search has a --type of its own: see `typed`);
 * - a path glob goes into an ignore file (`*`, `!*\/`, `!glob`: ignore every file but those that
 *   match), which rg consults after .gitignore: an ignored file stays ignored. A file that a
 *   .gitignore re-includes with its own `!pattern` is the one case this lets through unfiltered.
 */
export async function globFilter(
  glob: string | undefined,
  options: { typed?: boolean } = {},
): Promise<GlobFilter> {
  if (glob === undefined) return NONE;
  if (/[\r\n]/.test(glob)) throw new FileToolError("the glob is more than one line: give one glob");
  const negated = glob.startsWith("!");
  const body = negated ? glob.slice(1) : glob;
  if (body === "") throw new FileToolError(`invalid glob ${JSON.stringify(glob)}: nothing after the "!"`);
  // "include:" would read as rg's type-include directive, not as a glob; beside a --type (the
  // caller's `typed`), a second type would widen the search (rg ORs types), so the ignore file
  // narrows instead (a --type-not narrows either way)
  if (!body.includes("/") && !body.startsWith("include:") && (negated || !options.typed)) {
    return {
      args: [`--type-add=${TYPE}:${body}`, negated ? `--type-not=${TYPE}` : `--type=${TYPE}`],
      dispose: async () => {},
    };
  }
  const dir = await mkdtemp(path.join(tmpdir(), "toolplane-glob-"));
  const file = path.join(dir, "ignore");
  const lines = negated ? [body] : ["*", "!*/", `!${body}`];
  await writeFile(file, `${lines.join("\n")}\n`, { mode: 0o600 });
  return { args: [`--ignore-file=${file}`], dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** The file type name the glob is defined as (no built-in rg type has it). */
const TYPE = "toolplaneglob";
