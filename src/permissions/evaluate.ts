import path from "node:path";
import { nameGlob, pathGlob } from "./glob.js";
import { PATH_MAX_CHARS, paramMatches, textMatches } from "./param-match.js";
import { protectedReason } from "./protected.js";
import type { Effect, PermissionRule, SourcedRule } from "./rules.js";

export { atPointer, PATH_MAX_CHARS, REGEX_VALUE_MAX_CHARS, VALUE_MAX_CHARS } from "./param-match.js";

/** A path a call names, already resolved (see request.ts); plain data so evaluation stays pure. */
export interface RequestPath {
  /** As the call gave it. */
  input: string;
  /** Absolute, `..` folded, the name as written (rules match its NFC form); symlinks not followed. */
  lexical: string;
  /** Symlinks followed as far as the path exists. */
  real: string;
  /** `real` relative to the workspace, "/"-separated; undefined when outside it. */
  relative?: string;
  /** `lexical` relative to the workspace, likewise. */
  lexicalRelative?: string;
  /** Inside the workspace or an added directory. */
  inside: boolean;
  /** Set when the path cannot be used at all (NUL byte, empty). */
  problem?: string;
  /** The call touches everything below this path too (`rm -r`, `find -delete`): deny and ask rules on anything below it apply. */
  subtree?: boolean;
}

/** Everything a decision depends on. */
export interface PermissionRequest {
  tool: string;
  namespace: string;
  action?: string;
  patterns: readonly string[];
  paths: readonly RequestPath[];
  /** The validated arguments (parameter rules look into these). */
  args: unknown;
  /** The least strict effect the call may get, and why (the tool cannot see what it does). */
  floor?: { effect: Effect; reason: string };
  /** The tool knows the call cannot write or run anything: no action default applies, only defaultEffect. */
  knownSafe?: string;
}

export interface PermissionPolicy {
  rules: readonly SourcedRule[];
  /** Effect when no rule applies to a call (or to one of its patterns or paths). */
  defaultEffect: Effect;
  /** Paths outside the workspace and added directories are denied. */
  workspaceBoundary: boolean;
  /** Basename globs of files that always ask (`.env`-style secrets). */
  askFiles: readonly string[];
  /** The workspace's filesystem ignores case: allow rules may then fold case too. */
  caseInsensitive: boolean;
  /**
   * Per action, the effect when no rule applies (the stricter of this and defaultEffect wins):
   * the session sets `command` and `write` to ask, so running and writing need a rule that allows.
   */
  actionDefaults?: Readonly<Record<string, Effect>>;
  /**
   * Paths a `write` may reach only through a rule that names them by path (see protected.ts): an
   * allow without a path does not cover them, and without such a rule the write asks.
   */
  protectedPaths?: readonly string[];
}

export interface Decision {
  effect: Effect;
  /** The rule that decided, or the built-in check / default. */
  decidedBy: { origin: string; rule?: PermissionRule };
  /** What the call was checked against when it decided: "the call", a pattern or a path. */
  subject: string;
  /** One line for the model or a person. */
  message: string;
}

const SEVERITY: Record<Effect, number> = { allow: 0, ask: 1, deny: 2 };

interface Verdict {
  effect: Effect;
  origin: string;
  rule?: PermissionRule;
  subject: string;
}

/**
 * Decides one call. Pure: the same request and policy always give the same decision. The call is
 * split into subjects (each declared pattern, each path, or the call itself when it has neither);
 * each subject takes the strictest effect of the rules that apply to it (or the default), and the
 * call takes the strictest subject. So an allow for one pattern never carries another pattern.
 */
export function evaluatePermission(request: PermissionRequest, policy: PermissionPolicy): Decision {
  const applies = policy.rules.filter((r) => callMatches(r, request));
  const fallback = defaultFor(request, policy);
  const callLevel = applies.filter((r) => r.rule.pattern === undefined && r.rule.path === undefined);
  const verdicts: Verdict[] = [];

  for (const p of request.paths) {
    const subject = `path ${JSON.stringify(p.input)}`;
    const builtIn = pathGuards(p, policy, subject);
    let ruled = applies
      .filter(
        (r) => r.rule.pattern === undefined && (r.rule.path === undefined || pathMatches(r.rule, p, policy)),
      )
      .map((r) => verdictOf(r, subject));
    const guarded =
      request.action === "write" && policy.protectedPaths !== undefined && p.problem === undefined
        ? protectedReason(p, policy.protectedPaths)
        : undefined;
    if (guarded !== undefined) {
      // only an allow that names the path counts; without one, the write asks
      ruled = ruled.filter((v) => v.effect !== "allow" || v.rule?.path !== undefined);
      if (!ruled.some((v) => v.effect === "allow"))
        builtIn.push({ effect: "ask", origin: `built-in: ${guarded}`, subject });
    }
    verdicts.push(strictest([...builtIn, ...ruled], fallback, subject));
  }
  for (const pattern of request.patterns) {
    const subject = `pattern ${JSON.stringify(pattern)}`;
    const ruled = applies
      .filter((r) => r.rule.path === undefined)
      .filter((r) => r.rule.pattern === undefined || textMatches(r.rule.pattern, pattern, r.rule.effect))
      .map((r) => verdictOf(r, subject));
    verdicts.push(strictest(ruled, fallback, subject));
  }
  if (verdicts.length === 0) {
    verdicts.push(
      strictest(
        callLevel.map((r) => verdictOf(r, "the call")),
        fallback,
        "the call",
      ),
    );
  }
  if (request.floor) {
    // first: on a tie it is the verdict shown, since it says what the tool could not see
    verdicts.unshift({
      effect: request.floor.effect,
      origin: `the tool: ${request.floor.reason}`,
      subject: "the call",
    });
  }
  const decided = verdicts.reduce((a, b) => (SEVERITY[b.effect] > SEVERITY[a.effect] ? b : a));
  return {
    effect: decided.effect,
    decidedBy: decided.rule ? { origin: decided.origin, rule: decided.rule } : { origin: decided.origin },
    subject: decided.subject,
    message: describe(request, decided),
  };
}

/** What decided one path, as evaluatePermission's Decision.decidedBy would say it. */
export interface PathOutcome {
  effect: Effect;
  origin: string;
  rule?: PermissionRule;
}

/**
 * evaluatePermission for the many paths of one call (the files a search would show): the call's
 * rules are chosen once, and a path costs its matches only, with no verdict objects, subjects or
 * messages. It covers the requests such a check makes (one path, no patterns, no floor, not known
 * safe, not a write, the path usable and not a subtree) and hands any other to evaluatePermission;
 * its answers are evaluatePermission's, tested on generated policies and paths.
 */
export function pathDecider(
  base: Omit<PermissionRequest, "paths">,
  policy: PermissionPolicy,
): (p: RequestPath) => PathOutcome {
  const slow = (p: RequestPath): PathOutcome => {
    const d = evaluatePermission({ ...base, paths: [p] }, policy);
    return d.decidedBy.rule
      ? { effect: d.effect, origin: d.decidedBy.origin, rule: d.decidedBy.rule }
      : { effect: d.effect, origin: d.decidedBy.origin };
  };
  if (base.patterns.length > 0 || base.floor || base.knownSafe !== undefined || base.action === "write")
    return slow;
  const request = { ...base, paths: [] } as PermissionRequest;
  // every outcome made once: deciding a path allocates nothing (a search decides thousands)
  const ruled = policy.rules
    .filter((r) => callMatches(r, request) && r.rule.pattern === undefined)
    .map((r) => ({ rule: r.rule, outcome: { effect: r.rule.effect, origin: r.origin, rule: r.rule } }));
  const defaulted = defaultFor(request, policy);
  const fallback: PathOutcome = { effect: defaulted.effect, origin: defaulted.origin };
  const boundary: PathOutcome = {
    effect: "deny",
    origin: "built-in: workspace boundary (permissions.workspaceBoundary)",
  };
  const sensitive: PathOutcome = { effect: "ask", origin: "built-in: sensitive file (permissions.askFiles)" };
  const asks = askFilesMatcher(policy.askFiles);
  return (p) => {
    if (p.problem !== undefined || p.subtree) return slow(p);
    // the order evaluatePermission weighs them in: built-in checks, then rules in policy order;
    // the first of the strictest effect decides
    let best: PathOutcome | undefined;
    if (policy.workspaceBoundary && !p.inside) best = boundary;
    const real = path.basename(p.real).normalize("NFC");
    const lexical = p.lexical === p.real ? real : path.basename(p.lexical).normalize("NFC");
    if (
      (best === undefined || best.effect === "allow") &&
      (asks(real) || (lexical !== real && asks(lexical)))
    )
      best = sensitive;
    for (const r of ruled) {
      if (best !== undefined && SEVERITY[r.outcome.effect] <= SEVERITY[best.effect]) continue;
      if (r.rule.path === undefined || pathMatches(r.rule, p, policy)) best = r.outcome;
    }
    return best ?? fallback;
  };
}

/** The rule that denies every call of this tool, if any: such a tool is left out of the catalog. */
export function deniedOutright(
  tool: { name: string; namespace: string },
  rules: readonly SourcedRule[],
): SourcedRule | undefined {
  return rules.find(
    (r) =>
      r.rule.effect === "deny" &&
      r.rule.action === undefined &&
      r.rule.pattern === undefined &&
      r.rule.path === undefined &&
      r.rule.param === undefined &&
      toolMatches(r, tool.name, tool.namespace),
  );
}

function strictest(verdicts: Verdict[], fallback: Verdict, subject: string): Verdict {
  if (verdicts.length === 0) return { ...fallback, subject };
  return verdicts.reduce((a, b) => (SEVERITY[b.effect] > SEVERITY[a.effect] ? b : a));
}

/** The effect of a subject no rule applies to: defaultEffect, or the action's own default when stricter. */
function defaultFor(request: PermissionRequest, policy: PermissionPolicy): Verdict {
  if (request.knownSafe !== undefined) {
    return {
      effect: policy.defaultEffect,
      origin: `the built-in read-only set (${request.knownSafe})`,
      subject: "",
    };
  }
  const own = request.action !== undefined ? policy.actionDefaults?.[request.action] : undefined;
  if (own !== undefined && SEVERITY[own] > SEVERITY[policy.defaultEffect]) {
    return { effect: own, origin: `default for action ${request.action} (no rule allows it)`, subject: "" };
  }
  return { effect: policy.defaultEffect, origin: "default (no rule applies)", subject: "" };
}

function verdictOf(r: SourcedRule, subject: string): Verdict {
  return { effect: r.rule.effect, origin: r.origin, rule: r.rule, subject };
}

function pathGuards(p: RequestPath, policy: PermissionPolicy, subject: string): Verdict[] {
  if (p.problem !== undefined) return [{ effect: "deny", origin: `built-in: ${p.problem}`, subject }];
  const out: Verdict[] = [];
  if (policy.workspaceBoundary && !p.inside) {
    out.push({
      effect: "deny",
      origin: "built-in: workspace boundary (permissions.workspaceBoundary)",
      subject,
    });
  }
  const asks = askFilesMatcher(policy.askFiles);
  const real = path.basename(p.real).normalize("NFC");
  const lexical = p.lexical === p.real ? real : path.basename(p.lexical).normalize("NFC");
  if (asks(real) || (lexical !== real && asks(lexical))) {
    out.push({ effect: "ask", origin: "built-in: sensitive file (permissions.askFiles)", subject });
  }
  return out;
}

const askFilesMatchers = new WeakMap<readonly string[], (name: string) => boolean>();

/**
 * The askFiles globs as one matcher, compiled once per list (a search checks thousands of files
 * against the same list, the read-only sandbox every file of the workspace): the same pathGlob
 * matchers, looked up once instead of per file. Give it NFC names, as the checks here do.
 */
export function askFilesMatcher(globs: readonly string[]): (name: string) => boolean {
  let matcher = askFilesMatchers.get(globs);
  if (!matcher) {
    const each = globs.map((glob) => pathGlob(glob, true));
    matcher = (name) => each.some((m) => m(name));
    askFilesMatchers.set(globs, matcher);
  }
  return matcher;
}

function callMatches(sourced: SourcedRule, request: PermissionRequest): boolean {
  const rule = sourced.rule;
  if (
    (rule.tool !== undefined || rule.namespace !== undefined) &&
    !toolMatches(sourced, request.tool, request.namespace)
  )
    return false;
  if (rule.action !== undefined && (request.action === undefined || !nameGlob(rule.action)(request.action)))
    return false;
  if (rule.param !== undefined && !paramMatches(rule.param, request.args, rule.effect)) return false;
  return true;
}

function toolMatches(sourced: SourcedRule, name: string, namespace: string): boolean {
  const rule = sourced.rule;
  if (rule.tool !== undefined) {
    const globs = [rule.tool, ...(sourced.toolAliases ?? [])];
    const hit = globs.some((glob) => nameGlob(glob)(glob.includes("/") ? `${namespace}/${name}` : name));
    if (!hit) return false;
  }
  if (rule.namespace !== undefined && !nameGlob(rule.namespace)(namespace)) return false;
  return true;
}

/**
 * Deny and ask rules match case-insensitively, and against the path as written as well as the
 * resolved one: they fail closed. Allow rules match only the resolved path, folding case only
 * where the filesystem does, so an allow never reaches a file other than the one it names.
 */
function pathMatches(rule: PermissionRule, p: RequestPath, policy: PermissionPolicy): boolean {
  if (p.problem !== undefined || rule.path === undefined) return false;
  const strict = rule.effect === "allow";
  const nocase = strict ? policy.caseInsensitive : true;
  const match = pathGlob(rule.path, nocase);
  const absoluteGlob = rule.path.startsWith("/");
  const candidates = strict ? [p.real] : [p.real, p.lexical];
  // a path no filesystem opens cannot be matched exactly: fail closed
  if (candidates.some((c) => c.length > PATH_MAX_CHARS)) return !strict;
  return candidates.some((c) => {
    const normal = c.normalize("NFC");
    if (absoluteGlob)
      return match(normal) || (!strict && p.subtree === true && mayMatchBelow(rule.path!, normal, nocase));
    const rel = c === p.real ? p.relative : p.lexicalRelative;
    if (rel === undefined) return false;
    const relNormal = rel.normalize("NFC");
    return (
      match(relNormal) || (!strict && p.subtree === true && mayMatchBelow(rule.path!, relNormal, nocase))
    );
  });
}

/**
 * Whether a path glob could match something below `dir` (a call that touches a whole subtree):
 * true when the glob's literal head, up to its first wildcard, leads into `dir` or starts with a
 * wildcard. An over-approximation on purpose: deny and ask rules fail closed.
 */
export function mayMatchBelow(glob: string, dir: string, nocase: boolean): boolean {
  const wild = glob.search(/[*?[\]{}()!+@]/);
  const head = wild < 0 ? glob : glob.slice(0, wild);
  const fold = (x: string) => (nocase ? x.toLowerCase() : x);
  const base = dir === "" || dir === "/" ? "" : `${fold(dir).replace(/\/+$/, "")}/`;
  const h = fold(head);
  // the glob's fixed part ends inside dir (or dir is the root), or dir lies inside that fixed part
  return base === "" || h.startsWith(base) || (wild >= 0 && base.startsWith(h));
}

function describe(request: PermissionRequest, v: Verdict): string {
  const what = `${request.tool}${request.action ? ` (${request.action})` : ""}`;
  const why = v.rule?.reason ? `: ${v.rule.reason}` : "";
  if (v.effect === "allow") return `${what} allowed by ${v.origin}`;
  const verb = v.effect === "deny" ? "denied" : "needs approval";
  return `${what} ${verb} for ${v.subject} by ${v.origin}${why}`;
}
