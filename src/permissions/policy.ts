import type { PermissionPolicy } from "./evaluate.js";
import { isCaseInsensitiveAt } from "./paths.js";
import type { Effect, PermissionRule, SourcedRule } from "./rules.js";

/** What policyFromConfig needs of a loaded configuration (kept structural: no import of config). */
export interface PolicyConfigValue {
  value: unknown;
  layer: string;
  source?: string;
  contributions?: Array<{ layer: string; source: string; value: unknown; indices?: number[] }>;
}

/**
 * The permission policy from configuration: every layer's rules (highest layer first), each
 * labelled with the file or flag it came from so a decision can name it.
 */
export function policyFromConfig(
  values: Readonly<Record<string, PolicyConfigValue>>,
  workspace: string,
): PermissionPolicy {
  const rulesValue = values["permissions.rules"];
  const rules: SourcedRule[] = [];
  const parts = rulesValue?.contributions ?? [];
  for (const part of parts) {
    (part.value as PermissionRule[]).forEach((rule, i) => {
      rules.push({
        rule,
        origin: `rule #${(part.indices?.[i] ?? i) + 1} of permissions.rules in ${part.source} (${part.layer})`,
        layer: part.layer,
      });
    });
  }
  return {
    rules,
    defaultEffect: (values["permissions.defaultEffect"]?.value as Effect | undefined) ?? "allow",
    workspaceBoundary: (values["permissions.workspaceBoundary"]?.value as boolean | undefined) ?? true,
    askFiles: (values["permissions.askFiles"]?.value as string[] | undefined) ?? [],
    caseInsensitive: isCaseInsensitiveAt(workspace),
  };
}
