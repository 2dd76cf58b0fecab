import type { AnyTool, PathAccess, PathVerdict } from "../declare/types.js";
import {
  type Decision,
  evaluatePermission,
  type PathOutcome,
  type PermissionPolicy,
  type PermissionRequest,
  pathDecider,
  type RequestPath,
} from "../permissions/evaluate.js";
import { type RequestEnv, requestPathResolver } from "../permissions/request.js";

export interface PathAccessOptions {
  tool: AnyTool;
  namespace: string;
  /** The call's validated arguments (parameter rules look into them). */
  args: unknown;
  policy: PermissionPolicy;
  env: RequestEnv;
  /** The ask this call was approved under, if it asked: a path the same rule asks for is covered. */
  approved?: Decision;
  /** Puts an ask to the approver, serialised with every other ask; absent: every ask is denied. */
  ask?: (decision: Decision, request: PermissionRequest) => Promise<boolean>;
}

/**
 * The permission policy for the paths one call reaches beyond its own arguments (ToolContext.paths):
 * each path is decided as if the call had named it as its path, by the same pure
 * evaluatePermission (path rules, askFiles, the workspace boundary). A search shows a file only
 * when that decision allows it.
 */
export function pathAccess(o: PathAccessOptions): PathAccess {
  const resolve = requestPathResolver(o.env);
  const action = o.tool.host.permission?.action;
  const answers = new Map<string, Promise<boolean>>();
  const decide = (input: string, real = false) => {
    const request: PermissionRequest = {
      tool: o.tool.name,
      namespace: o.namespace,
      patterns: [],
      paths: [resolve(input, { real })],
      args: o.args,
    };
    if (action !== undefined) request.action = action;
    return { request, decision: evaluatePermission(request, o.policy) };
  };
  const verdictOf = (d: Decision): PathVerdict => {
    if (d.effect !== "ask") return d.effect;
    return o.approved && sameDecider(d, o.approved) ? "allow" : "ask";
  };
  // the batch check (thousands of files): the call's rules chosen once, no Decision per file
  let fast: ((p: RequestPath) => PathOutcome) | undefined;
  const quick = (input: string, real: boolean): PathVerdict => {
    fast ??= pathDecider(
      {
        tool: o.tool.name,
        namespace: o.namespace,
        patterns: [],
        args: o.args,
        ...(action !== undefined ? { action } : {}),
      },
      o.policy,
    );
    const out = fast(resolve(input, { real }));
    if (out.effect !== "ask") return out.effect;
    return o.approved && sameDecider({ decidedBy: out }, o.approved) ? "allow" : "ask";
  };
  let roots: string[] | undefined;
  return {
    get roots() {
      roots ??= o.env.extraRoots.map((r) => resolve(r).real);
      return roots;
    },
    boundary: o.policy.workspaceBoundary,
    protected: o.policy.protectedPaths ?? [],
    askFiles: o.policy.askFiles,
    check: (paths, options = {}) => paths.map((p) => quick(p, options.real === true)),
    approve: (p) => {
      let answer = answers.get(p);
      if (answer === undefined) {
        const { request, decision } = decide(p);
        const verdict = verdictOf(decision);
        answer =
          verdict === "allow"
            ? Promise.resolve(true)
            : verdict === "deny" || !o.ask
              ? Promise.resolve(false)
              : o.ask(decision, request);
        answers.set(p, answer);
      }
      return answer;
    },
  };
}

/** The same rule (or the same built-in check) decided both. */
function sameDecider(a: { decidedBy: { origin: string; rule?: unknown } }, b: Decision): boolean {
  return a.decidedBy.origin === b.decidedBy.origin && a.decidedBy.rule === b.decidedBy.rule;
}
