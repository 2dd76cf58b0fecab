import { describe, expect, it } from "vitest";
import {
  evaluatePermission,
  mayMatchBelow,
  type PermissionPolicy,
  type PermissionRequest,
  type RequestPath,
} from "../../src/permissions/index.js";

const policy = (rules: PermissionPolicy["rules"] = []): PermissionPolicy => ({
  rules,
  defaultEffect: "allow",
  workspaceBoundary: true,
  askFiles: [],
  caseInsensitive: false,
  actionDefaults: { command: "ask", write: "ask" },
});
const path = (relative: string, subtree = false): RequestPath => ({
  input: relative,
  lexical: `/ws/${relative}`,
  real: `/ws/${relative}`,
  relative,
  lexicalRelative: relative,
  inside: true,
  ...(subtree ? { subtree: true } : {}),
});
const request = (action: string, extra: Partial<PermissionRequest> = {}): PermissionRequest => ({
  tool: "bash",
  namespace: "builtin",
  action,
  patterns: [],
  paths: [],
  args: {},
  ...extra,
});
const rule = (r: PermissionPolicy["rules"][number]["rule"]) => ({ rule: r, origin: "test" });

describe("per-action defaults, floors and subtrees (evaluatePermission stays pure)", () => {
  it("command and write ask when no rule covers them; reads keep defaultEffect", () => {
    const p = policy();
    expect(evaluatePermission(request("command", { patterns: ["ls"] }), p).effect).toBe("ask");
    expect(evaluatePermission(request("write", { paths: [path("a")] }), p).effect).toBe("ask");
    expect(evaluatePermission(request("read", { paths: [path("a")] }), p).effect).toBe("allow");
    const allowed = policy([rule({ effect: "allow", action: "command", pattern: "ls*" })]);
    expect(evaluatePermission(request("command", { patterns: ["ls -la"] }), allowed).effect).toBe("allow");
    // a stricter defaultEffect still wins
    expect(
      evaluatePermission(request("command", { patterns: ["x"] }), { ...p, defaultEffect: "deny" }).effect,
    ).toBe("deny");
  });

  it("a floor keeps an allowed request at ask, and a deny still wins over it", () => {
    const all = policy([rule({ effect: "allow", tool: "bash" })]);
    const floored = request("command", { patterns: ["eval x"], floor: { effect: "ask", reason: "eval" } });
    const d = evaluatePermission(floored, all);
    expect(d.effect).toBe("ask");
    expect(d.message).toContain("the tool: eval");
    const denied = policy([rule({ effect: "deny", action: "command", pattern: "eval *" })]);
    expect(evaluatePermission(floored, denied).effect).toBe("deny");
  });

  it("a subtree path meets deny and ask rules on anything below it; allow rules only on itself", () => {
    const p = policy([
      rule({ effect: "allow", action: "write" }),
      rule({ effect: "deny", action: "write", path: "src/secret/**" }),
    ]);
    expect(evaluatePermission(request("write", { paths: [path("src", true)] }), p).effect).toBe("deny");
    expect(evaluatePermission(request("write", { paths: [path("src")] }), p).effect).toBe("allow");
    expect(evaluatePermission(request("write", { paths: [path("lib", true)] }), p).effect).toBe("allow");
    expect(mayMatchBelow("**/.env", "a/b", false)).toBe(true);
    expect(mayMatchBelow("src/*.ts", "src", false)).toBe(true);
    expect(mayMatchBelow("src/**", "src/a", false)).toBe(true);
    expect(mayMatchBelow("lib/**", "src", false)).toBe(false);
    expect(mayMatchBelow("srcx/a", "src", false)).toBe(false);
  });
});
