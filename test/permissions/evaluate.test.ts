import { describe, expect, it } from "vitest";
import {
  deniedOutright,
  evaluatePermission,
  type PermissionPolicy,
  type PermissionRequest,
  type PermissionRule,
  permissionRuleSchema,
} from "../../src/permissions/index.js";

const policy = (rules: PermissionRule[], extra: Partial<PermissionPolicy> = {}): PermissionPolicy => ({
  rules: rules.map((rule, i) => ({ rule, origin: `#${i + 1}` })),
  defaultEffect: "allow",
  workspaceBoundary: true,
  askFiles: [".env"],
  caseInsensitive: false,
  ...extra,
});

const req = (over: Partial<PermissionRequest> = {}): PermissionRequest => ({
  tool: "bash",
  namespace: "builtin",
  action: "exec",
  patterns: [],
  paths: [],
  args: {},
  ...over,
});

describe("permission evaluation (pure)", () => {
  it("tool-name rules, with deny winning over allow whatever the order", () => {
    const rules: PermissionRule[] = [
      { effect: "allow", tool: "bash" },
      { effect: "deny", tool: "ba*" },
    ];
    const d = evaluatePermission(req(), policy(rules));
    expect(d.effect).toBe("deny");
    expect(d.decidedBy.origin).toBe("#2");
    expect(evaluatePermission(req(), policy([...rules].reverse())).decidedBy.origin).toBe("#1");
  });

  it("namespace rules switch a whole namespace: mcp:github/* and namespace globs", () => {
    const gh = req({ tool: "create_issue", namespace: "mcp:github" });
    expect(evaluatePermission(gh, policy([{ effect: "deny", tool: "mcp:github/*" }])).effect).toBe("deny");
    expect(evaluatePermission(gh, policy([{ effect: "deny", namespace: "mcp:*" }])).effect).toBe("deny");
    expect(evaluatePermission(req(), policy([{ effect: "deny", tool: "mcp:github/*" }])).effect).toBe(
      "allow",
    );
  });

  it("declared actions with patterns: an allow for one pattern never carries another", () => {
    const rules: PermissionRule[] = [{ effect: "allow", action: "exec", pattern: "git status*" }];
    const strict = policy(rules, { defaultEffect: "deny" });
    expect(evaluatePermission(req({ patterns: ["git status --short"] }), strict).effect).toBe("allow");
    const mixed = evaluatePermission(req({ patterns: ["git status", "rm -rf /"] }), strict);
    expect(mixed.effect).toBe("deny");
    expect(mixed.subject).toBe('pattern "rm -rf /"');
    expect(mixed.decidedBy.origin).toMatch(/default/);
  });

  it("pattern globs span slashes so a deny cannot be dodged with a path in the command", () => {
    const d = evaluatePermission(
      req({ patterns: ["git push origin/main --force"] }),
      policy([{ effect: "deny", pattern: "git push *" }]),
    );
    expect(d.effect).toBe("deny");
  });

  it("parameter rules: JSON pointer plus glob, regex or enum", () => {
    const args = { opts: { method: "DELETE", url: "https://api.example.com/v1/users" }, tags: ["a", "prod"] };
    const at = (param: PermissionRule["param"]) =>
      evaluatePermission(req({ args }), policy([{ effect: "deny", param }])).effect;
    expect(at({ pointer: "/opts/method", enum: ["DELETE", "PUT"] })).toBe("deny");
    expect(at({ pointer: "/opts/method", enum: ["GET"] })).toBe("allow");
    expect(at({ pointer: "/opts/url", glob: "https://api.example.com/*" })).toBe("deny");
    expect(at({ pointer: "/opts/url", regex: "^http://" })).toBe("allow");
    expect(at({ pointer: "/tags", enum: ["prod"] })).toBe("deny");
    expect(at({ pointer: "/missing", glob: "*" })).toBe("allow");
  });

  it("an ask beats an allow, and a deny beats an ask", () => {
    const rules: PermissionRule[] = [
      { effect: "allow", tool: "bash" },
      { effect: "ask", action: "exec" },
    ];
    expect(evaluatePermission(req(), policy(rules)).effect).toBe("ask");
    expect(evaluatePermission(req(), policy([...rules, { effect: "deny", tool: "*" }])).effect).toBe("deny");
  });

  it("is pure: the same request and policy give the same decision", () => {
    const r = req({
      patterns: ["a", "b"],
      paths: [{ input: "x", lexical: "/w/x", real: "/w/x", relative: "x", inside: true }],
    });
    const p = policy([{ effect: "ask", pattern: "b" }]);
    expect(evaluatePermission(r, p)).toEqual(evaluatePermission(structuredClone(r), p));
  });

  it("allow rules match paths exactly where the filesystem is case-sensitive; deny rules fold case", () => {
    const path = {
      input: "Docs/a",
      lexical: "/w/Docs/a",
      real: "/w/Docs/a",
      relative: "Docs/a",
      inside: true,
    };
    const strict = { defaultEffect: "deny" as const };
    expect(
      evaluatePermission(req({ paths: [path] }), policy([{ effect: "allow", path: "docs/**" }], strict))
        .effect,
    ).toBe("deny");
    expect(
      evaluatePermission(req({ paths: [path] }), policy([{ effect: "deny", path: "docs/**" }])).effect,
    ).toBe("deny");
    const folded = policy([{ effect: "allow", path: "docs/**" }], { ...strict, caseInsensitive: true });
    expect(evaluatePermission(req({ paths: [path] }), folded).effect).toBe("allow");
  });

  it("a tool denied outright is found (it leaves the catalog); a conditional deny is not", () => {
    const rules = policy([
      { effect: "deny", tool: "bash", pattern: "rm *" },
      { effect: "deny", tool: "mcp:github/*" },
    ]).rules;
    expect(deniedOutright({ name: "bash", namespace: "builtin" }, rules)).toBeUndefined();
    expect(deniedOutright({ name: "merge_pr", namespace: "mcp:github" }, rules)?.origin).toBe("#2");
  });

  it("the rule schema refuses ambiguous rules with a clear message", () => {
    const bad = [
      { effect: "deny", param: { pointer: "/a", glob: "x", regex: "y" } },
      { effect: "deny", param: { pointer: "a", glob: "x" } },
      { effect: "deny", param: { pointer: "/a", regex: "(" } },
      { effect: "deny", path: "a", pattern: "b" },
      { effect: "block" },
      { effect: "deny", tol: "x" },
    ];
    for (const rule of bad)
      expect(permissionRuleSchema().safeParse(rule).success, JSON.stringify(rule)).toBe(false);
    expect(permissionRuleSchema().safeParse({ effect: "deny", tool: "x", reason: "why" }).success).toBe(true);
  });
});
