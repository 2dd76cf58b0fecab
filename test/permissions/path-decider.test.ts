// pathDecider, the per-file fast path of a search's permission check, answers what
// evaluatePermission answers (effect, and the rule or built-in check that decided), on generated
// policies and paths: it is checked against the real evaluator, not a model of it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  evaluatePermission,
  type PermissionPolicy,
  type PermissionRequest,
  pathDecider,
} from "../../src/permissions/evaluate.js";
import { requestPathResolver } from "../../src/permissions/request.js";
import type { PermissionRule, SourcedRule } from "../../src/permissions/rules.js";
import { tempDir, writeTree } from "../helpers/tmp.js";

const effect = fc.constantFrom("allow" as const, "ask" as const, "deny" as const);
const rule: fc.Arbitrary<PermissionRule> = fc
  .record(
    {
      effect,
      path: fc.constantFrom(
        "src/**",
        "*.env",
        "secrets/**",
        "**/*.ts",
        "**",
        "a/b",
        "/etc/**",
        "SRC/**",
        "src/*",
      ),
      tool: fc.constantFrom("grep", "read", "*", "glob"),
      action: fc.constantFrom("search", "read", "write", "*"),
      pattern: fc.constantFrom("x *", "*"),
      param: fc.constant({ pointer: "/pattern", glob: "fun*" }),
    },
    { requiredKeys: ["effect"] },
  )
  .map((r) => r as PermissionRule);

const policy: fc.Arbitrary<PermissionPolicy> = fc.record({
  rules: fc
    .array(rule, { maxLength: 6 })
    .map((rules) => rules.map((r, i): SourcedRule => ({ rule: r, origin: `rule #${i}` }))),
  defaultEffect: effect,
  workspaceBoundary: fc.boolean(),
  askFiles: fc.subarray([".env", "*.pem", "id_rsa*", "*.ts"]),
  caseInsensitive: fc.boolean(),
  actionDefaults: fc.constantFrom<Record<string, "allow" | "ask" | "deny">>(
    {},
    { search: "ask" },
    { read: "deny" },
  ),
}) as fc.Arbitrary<PermissionPolicy>;

describe("pathDecider", () => {
  it("decides every path as evaluatePermission does", () => {
    const ws = writeTree(tempDir("tp-decider-"), {
      "src/a.ts": "",
      "src/.env": "",
      "secrets/key.pem": "",
      "a/b": "",
      id_rsa: "",
    });
    const resolve = requestPathResolver({ cwd: ws, workspace: ws, extraRoots: [] });
    const inputs = [
      `${ws}/src/a.ts`,
      "src/.env",
      `${ws}/secrets/key.pem`,
      "a/b",
      "id_rsa",
      "../elsewhere/x.ts",
      "/etc/passwd",
      `${ws}/SRC/a.ts`,
      "",
      `${ws}/src/../secrets/key.pem`,
    ];
    fc.assert(
      fc.property(
        policy,
        fc.constantFrom("grep", "read"),
        fc.constantFrom("search", "read", undefined),
        fc.constantFrom({ pattern: "function" }, { pattern: "x" }),
        fc.subarray(inputs, { minLength: 1 }),
        fc.boolean(),
        (pol, tool, action, args, picked, real) => {
          const base: Omit<PermissionRequest, "paths"> = {
            tool,
            namespace: "builtin",
            patterns: [],
            args,
            ...(action !== undefined ? { action } : {}),
          };
          const decide = pathDecider(base, pol);
          for (const input of picked) {
            const p = resolve(input, { real: real && input.startsWith("/") });
            const slow = evaluatePermission({ ...base, paths: [p] }, pol);
            const fast = decide(p);
            expect(fast, `${input} under ${JSON.stringify(pol.rules.map((r) => r.rule))}`).toEqual(
              slow.decidedBy.rule
                ? { effect: slow.effect, origin: slow.decidedBy.origin, rule: slow.decidedBy.rule }
                : { effect: slow.effect, origin: slow.decidedBy.origin },
            );
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});
