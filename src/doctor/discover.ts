import { createHash } from "node:crypto";
import type { AuditReport } from "../discover/discovery.js";
import type { SkillListing, SkillsView } from "../discover/view.js";
import { readRegularHeadSync } from "../util/regular-file.js";
import { type DoctorCheck, row } from "./types.js";
import type { WatchProbe } from "./watch-probe.js";

/**
 * How much of each skill file the comparison reads: a 10 MB SKILL.md is not read whole (its size
 * goes into the comparison instead), and a file swapped for a FIFO is skipped, not waited on.
 */
export const COMPARE_MAX_BYTES = 256 * 1024;

/**
 * Row 5: a full rescan against the incremental state (skills it holds wrongly or lacks), and the
 * live watcher probe's adds and renames (see watch-probe.ts): in a fresh process the state was
 * just scanned, so only the probe can show that changes would not reach it.
 */
export function staleCacheCheck(audit: AuditReport, roots: number, probe: WatchProbe): DoctorCheck {
  const watched = [...probe.errors, ...probe.missedAdds].map((f) => `watch probe: ${f}`);
  const findings = audit.differences
    .filter((d) => d.kind !== "extra")
    .map((d) =>
      d.kind === "missing"
        ? `${d.root}: "${d.entry}" is on disk but not in the discovered state`
        : `${d.root}: "${d.entry || "(root)"}" changed on disk since it was scanned`,
    )
    .concat(watched);
  return row(
    "discover",
    "stale-discovery-cache",
    `full rescan of ${roots} skill root(s) compared with the incremental state${audit.repaired ? " (differences repaired)" : ""}; a watched probe root given an add and a rename`,
    findings,
    "keep a watcher running (toolplane skills --watch, or watchSkills() with skills.auditIntervalMs > 0) so adds and changes reach the catalog; the doctor's rescan repaired this run",
  );
}

/**
 * Row 6: one skill under two names (a copy left behind by a rename): the same body, name aside.
 * Files are compared by their first COMPARE_MAX_BYTES (name line aside) and their size.
 */
export async function renameLeftoverCheck(skills: readonly SkillListing[]): Promise<DoctorCheck> {
  const byBody = new Map<string, SkillListing[]>();
  for (const s of skills) {
    let text: string;
    let size: number;
    try {
      const read = readRegularHeadSync(s.path, COMPARE_MAX_BYTES);
      text = read.head.toString("utf8");
      // a file read in part: its size (less the name line, which a rename changes) stands for the rest
      const nameLine = /^name:.*$/m.exec(text)?.[0] ?? "";
      size = read.head.length < read.size ? read.size - Buffer.byteLength(nameLine) : -1;
    } catch {
      continue; // a vanished (or no longer regular) file is the deletion check's finding
    }
    const key = createHash("sha256")
      .update(`${size}\u0000${bodyWithoutName(text)}`)
      .digest("hex");
    byBody.set(key, [...(byBody.get(key) ?? []), s]);
  }
  const findings: string[] = [];
  for (const group of byBody.values()) {
    if (group.length < 2) continue;
    findings.push(
      `${group.map((s) => `"${s.name}" (${s.path})`).join(" and ")} are the same skill under ${group.length} names`,
    );
  }
  return row(
    "discover",
    "rename-leftover",
    `${skills.length} skill(s) compared by content, name aside`,
    findings.sort(),
    "delete the old copy (a rename must remove the old directory), or make the two skills genuinely different",
  );
}

/** The file with its `name:` line (and leading/trailing space) taken out. */
function bodyWithoutName(text: string): string {
  return text
    .replace(/\r\n/g, "\n")
    .replace(/^name:.*$/m, "")
    .trim();
}

/**
 * A row of the tool layer's own: skill files discovery could not load (no description, bad YAML,
 * not a regular file), or loaded under their folder's name because they declare none. Other
 * warnings (an unknown field, a long description) are counted in the summary, not failed on:
 * `toolplane skills` lists them.
 */
export function skillFilesCheck(view: SkillsView): DoctorCheck {
  const findings: string[] = [];
  let warningsOnly = 0;
  for (const p of view.problems) {
    const errors = p.errors.filter((e) => !e.startsWith("warning: "));
    const unnamed = p.errors.filter((e) => /^warning: (line \d+: )?name: is required/.test(e));
    if (errors.length > 0) findings.push(`${p.path}: not loaded: ${errors.join("; ")}`);
    else if (unnamed.length > 0)
      findings.push(
        `${p.path}: loaded under its folder's name: ${unnamed.map((e) => e.slice(9)).join("; ")}`,
      );
    else warningsOnly += 1;
  }
  const more =
    warningsOnly > 0 ? `; ${warningsOnly} more with warnings only (toolplane skills lists them)` : "";
  return row(
    "discover",
    "skill-files",
    `${view.skills.length} skill(s) loaded, ${view.problems.length} file(s) with a problem${more}`,
    findings,
    "fix each file named (toolplane skills validate PATH lists every rule it breaks): a SKILL.md needs `name` and `description` in its frontmatter",
  );
}
