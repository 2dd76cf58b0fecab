import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CODING_ACTION_DEFAULTS } from "../../../src/assemble/policy.js";
import { CONFIG_KEYS } from "../../../src/config/keys.js";
import {
  buildPermissionRequests,
  type Effect,
  evaluatePermission,
  type PermissionPolicy,
  type PermissionRule,
} from "../../../src/permissions/index.js";
import { bashTool } from "../../../src/tools/bash/tool.js";
import { corpus } from "../../helpers/bash-corpus.js";
import { ROOT } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/tmp.js";

/** The three policies of the corpus (see the header of test/fixtures/bash-verdicts.tsv). */
const POLICIES: Record<string, PermissionRule[]> = {
  default: [],
  narrow: [
    { effect: "allow", action: "command", pattern: "cat *" },
    { effect: "allow", action: "command", pattern: "ls*" },
    { effect: "allow", action: "command", pattern: "git status*" },
    { effect: "allow", action: "command", pattern: "echo *" },
    { effect: "deny", action: "command", pattern: "rm *" },
  ],
  all: [
    { effect: "allow", action: "command" },
    { effect: "allow", action: "write" },
  ],
};

const askFiles = CONFIG_KEYS["permissions.askFiles"].default as string[];
let workspace = "";

/** What the host would do with the line under a policy: run it, ask, or deny it. */
async function verdictOf(
  command: string,
  rules: PermissionRule[],
  ws: string,
): Promise<"run" | "ask" | "deny"> {
  const tool = bashTool();
  const requests = await buildPermissionRequests(
    tool,
    "builtin",
    { command },
    {
      cwd: ws,
      workspace: ws,
      extraRoots: [],
      config: { "tools.sandbox": "off", "permissions.askFiles": askFiles },
    },
  );
  const policy: PermissionPolicy = {
    rules: rules.map((rule, i) => ({ rule, origin: `rule #${i + 1}` })),
    defaultEffect: "allow",
    workspaceBoundary: true,
    askFiles,
    caseInsensitive: false,
    actionDefaults: CODING_ACTION_DEFAULTS,
  };
  const order: Effect[] = ["allow", "ask", "deny"];
  let worst: Effect = "allow";
  for (const r of requests) {
    const e = evaluatePermission(r, policy).effect;
    if (order.indexOf(e) > order.indexOf(worst)) worst = e;
  }
  return worst === "allow" ? "run" : worst;
}

beforeAll(() => {
  workspace = tempDir("tp-verdicts-");
  mkdirSync(path.join(workspace, "src"));
  mkdirSync(path.join(workspace, ".git"));
  mkdirSync(path.join(workspace, "dash"));
  // a symlink out of the workspace: a search that follows symlinks reads through it
  symlinkSync("/etc", path.join(workspace, "src", "outside"));
  // a file whose name is an option: a glob that names it passes `--pre=touch` to rg
  for (const f of ["file.txt", "other.txt", "src/a.ts", "src/b.ts", ".env", "dash/--pre=touch", "dash/a"])
    writeFileSync(path.join(workspace, f), "x\n");
});

describe("bash verdicts against the peers' cases and the attack classes (test/fixtures/bash-verdicts.tsv)", () => {
  it("holds at least 300 commands from Codex, OpenCode, Gemini CLI, Claude Code and every attack class", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    for (const peer of ["codex", "opencode", "gemini", "claude", "attack"])
      expect(corpus.some((c) => c.source.startsWith(peer))).toBe(true);
  });

  it("agrees with at least 98% of the verdicts and lets nothing through that the peer asks for or denies", async () => {
    const disagreements: string[] = [];
    const letThrough: string[] = [];
    for (const c of corpus) {
      const got = await verdictOf(c.command, POLICIES[c.policy]!, workspace);
      if (got === c.verdict) continue;
      const line = `${c.policy} ${JSON.stringify(c.command)}: want ${c.verdict}, got ${got} (${c.source})`;
      disagreements.push(line);
      if (got === "run") letThrough.push(line);
    }
    expect(letThrough, disagreements.join("\n")).toEqual([]);
    const agreement = 1 - disagreements.length / corpus.length;
    expect(agreement, disagreements.join("\n")).toBeGreaterThanOrEqual(0.98);
    // the figure docs/bash.md states
    // with the peers themselves: the same call to run it or to stop it (ask and deny both stop it)
    const peerCases = corpus.filter((c) => !c.source.startsWith("attack"));
    const stops = (v: string) => v !== "run";
    const differ = peerCases.filter((c) => c.peer !== undefined && stops(c.peer) !== stops(c.verdict));
    expect(differ.filter((c) => c.peer !== "run")).toEqual([]);
    expect(1 - differ.length / peerCases.length).toBeGreaterThanOrEqual(0.98);
    const doc = readFileSync(path.join(ROOT, "docs", "bash.md"), "utf8");
    expect(doc).toContain(`the peers' ${peerCases.length} cases, ${peerCases.length - differ.length} agree`);
    const figure = `agrees on ${corpus.length - disagreements.length} of ${corpus.length}`;
    expect(
      doc,
      `docs/bash.md should say "${figure}"; the disagreements:\n${disagreements.join("\n")}`,
    ).toContain(figure);
  });
});
