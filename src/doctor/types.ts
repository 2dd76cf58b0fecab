import type { Toolplane } from "../assemble/toolplane.js";
import type { ProjectTrust } from "../config/index.js";
import type { ProviderProblem } from "../register/index.js";

/** One row of the seed's failure table, checked. */
export interface DoctorCheck {
  /** declare, register, discover, filter, render or invalidate. */
  station: string;
  /** Short id of the failure mode, e.g. "host-fields-leak". */
  check: string;
  ok: boolean;
  /** What was checked and, on a failure, every finding (one per line). */
  detail: string;
  /** How to fix a failure. */
  fix?: string;
  /** On a failure: each finding on its own (the same lines as in `detail`). */
  findings?: string[];
}

export interface DoctorReport {
  checks: DoctorCheck[];
  /** Every provider problem of the doctor's reads: `{provider, layer, outcome, reason, entry?}`. */
  problems: ProviderProblem[];
  /** Whether the project is trusted, and what its file set that was not applied. */
  trust: ProjectTrust;
}

export interface DoctorContext {
  plane: Toolplane;
  /** Opens the same project again with extra `--set KEY=VALUE` items (for the two-render check). */
  reopen(set: string[]): Promise<Toolplane>;
}

/** A passing or failing row: findings make it fail and are listed after the summary. */
export function row(
  station: string,
  check: string,
  summary: string,
  findings: readonly string[],
  fix: string,
): DoctorCheck {
  if (findings.length === 0) return { station, check, ok: true, detail: summary };
  return {
    station,
    check,
    ok: false,
    detail: `${summary}\n${findings.map((f) => `- ${f}`).join("\n")}`,
    fix,
    findings: [...findings],
  };
}
