import type { CallGrant } from "../declare/types.js";
import type { PermissionRequest } from "../permissions/evaluate.js";

/**
 * The grant a call runs under (ToolContext.grant), from the requests that were decided for it:
 * it may write only when an ask of it was approved (by a person or a hook), or when one of its
 * requests could write or run a program (not a read, not known safe) and was allowed without an
 * ask (by a rule, or the default). A call of reads and known-safe commands that asked nothing
 * runs read-only: bash's sandbox follows this.
 */
export function grantOf(requests: readonly PermissionRequest[], approved: boolean): CallGrant {
  return { writes: approved || requests.some((r) => r.knownSafe === undefined && r.action !== "read") };
}
