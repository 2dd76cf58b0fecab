export {
  atPointer,
  type Decision,
  deniedOutright,
  evaluatePermission,
  mayMatchBelow,
  type PermissionPolicy,
  type PermissionRequest,
  type RequestPath,
} from "./evaluate.js";
export { isCaseInsensitiveAt, isInside, PathError, type ResolvedPath, resolvePath } from "./paths.js";
export { policyFromConfig } from "./policy.js";
export {
  buildPermissionRequest,
  buildPermissionRequests,
  type RequestEnv,
  resolveRequestPath,
} from "./request.js";
export {
  EFFECTS,
  type Effect,
  isWholeToolRule,
  type PermissionRule,
  permissionRuleSchema,
  type SourcedRule,
} from "./rules.js";
