import { describe, expect, it } from "vitest";
import {
  evaluatePermission,
  type PermissionPolicy,
  type PermissionRule,
} from "../../src/permissions/index.js";

const ws = "/w";
const policy = (rules: PermissionRule[]): PermissionPolicy => ({
  rules: rules.map((rule, i) => ({ rule, origin: `rule #${i + 1}` })),
  defaultEffect: "allow",
  workspaceBoundary: true,
  askFiles: [],
  caseInsensitive: false,
  actionDefaults: { write: "ask" },
  protectedPaths: [`${ws}/.git`, `${ws}/.toolplane`],
});
const write = (rel: string, action = "write", subtree = false) => ({
  tool: "bash",
  namespace: "builtin",
  action,
  patterns: [],
  paths: [
    {
      input: rel,
      lexical: `${ws}/${rel}`.replace(/\/\.$/, ""),
      real: `${ws}/${rel}`.replace(/\/\.$/, ""),
      relative: rel,
      lexicalRelative: rel,
      inside: true,
      ...(subtree ? { subtree: true } : {}),
    },
  ],
  args: {},
});

describe("protected paths: a write there needs a rule that names it", () => {
  const allowAll: PermissionRule = { effect: "allow", action: "write" };
  it("an allow for every write does not cover .git or .toolplane: it asks, naming why", () => {
    for (const p of [".git/hooks/pre-commit", ".git/config", ".toolplane/config.json", ".git"]) {
      const d = evaluatePermission(write(p), policy([allowAll]));
      expect(d.effect, p).toBe("ask");
      expect(d.message).toContain("is protected");
    }
  });
  it("an allow that names the path by a path rule allows it; a deny still wins", () => {
    expect(
      evaluatePermission(
        write(".git/index"),
        policy([allowAll, { effect: "allow", action: "write", path: ".git/**" }]),
      ).effect,
    ).toBe("allow");
    expect(
      evaluatePermission(
        write(".git/index"),
        policy([
          { effect: "allow", action: "write", path: ".git/**" },
          { effect: "deny", action: "write", path: ".git/hooks/**" },
        ]),
      ).effect,
    ).toBe("allow");
    expect(
      evaluatePermission(
        write(".git/hooks/x"),
        policy([
          { effect: "allow", action: "write", path: ".git/**" },
          { effect: "deny", action: "write", path: ".git/hooks/**" },
        ]),
      ).effect,
    ).toBe("deny");
  });
  it("a subtree write that covers a protected folder counts; other paths and reads are unchanged", () => {
    expect(evaluatePermission(write(".", "write", true), policy([allowAll])).effect).toBe("ask");
    expect(evaluatePermission(write("src/a.ts"), policy([allowAll])).effect).toBe("allow");
    expect(evaluatePermission(write(".github/workflows/x.yml"), policy([allowAll])).effect).toBe("allow");
    expect(evaluatePermission(write(".git/config", "read"), policy([])).effect).toBe("allow");
  });
});
