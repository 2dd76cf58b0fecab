import { describe, expect, it } from "vitest";
import type { DoctorCheck } from "../../src/doctor/types.js";
import { runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

type Check = DoctorCheck;

function doctor(repo: string, env: NodeJS.ProcessEnv, extra: string[] = []) {
  const r = runCli(["doctor", "--cwd", repo, "--json", ...extra], { env });
  const report = JSON.parse(r.stdout) as { checks: Check[] };
  const byId = new Map(report.checks.map((c) => [`${c.station}/${c.check}`, c]));
  return { code: r.code, report, byId, stderr: r.stderr };
}

const skill = (name: string, body: string, extra = "") =>
  `---\nname: ${name}\ndescription: ${body.split("\n")[0]}\n${extra}---\n${body}\n`;

const output = `{ schema: { type: "object", properties: { status: { type: "string", enum: ["open", "closed"] } }, required: ["status"] }, render: (v) => v.status }`;

const IDS = [
  "declare/schema-vs-implementation",
  "declare/host-fields-leak",
  "register/same-name-override",
  "register/layer-attribution",
  "discover/stale-discovery-cache",
  "discover/rename-leftover",
  "filter/missing-attachment",
  "render/over-budget",
  "render/volatile-in-stable-prefix",
  "invalidate/missed-deletion",
  "register/provider-problems",
  "discover/skill-files",
  "config/untrusted-project",
  "tools/sandbox",
  "tools/bash-parser",
  "hooks/hook-commands",
];

describe("toolplane doctor", () => {
  it("passes every check on a clean project that uses modules, scope layers and expectations", () => {
    const { repo, env } = tempProject(
      {
        ".toolplane/config.json": JSON.stringify({
          // the sandbox row is tested apart (test/cli/bash.test.ts); off passes on any machine
          tools: { modules: [{ path: "tools/review.mjs", layer: "preset:review" }], sandbox: "off" },
          doctor: { expect: { "preset:review": ["review_diff", "ticket_status", "deploy"] } },
        }),
        "tools/review.mjs": `export const tools = [{ name: "review_diff", description: "Review a diff and list the problems found. Not for applying fixes.",
        parameters: { type: "object", properties: { diff: { type: "string" } }, required: ["diff"] }, output: ${output},
        execute: () => ({ status: "open" }),
        selection: { shouldSelect: [{ task: "review this diff", args: { diff: "+a" }, expected: { status: "open" } }], shouldNotSelect: [{ task: "apply the patch" }] } }];`,
        ".toolplane/skills/deploy/SKILL.md": skill(
          "deploy",
          "Deploy the app to staging.\nRun the deploy script.",
        ),
      },
      { trust: true },
    );
    const r = doctor(repo, env);
    expect(r.report.checks.map((c) => `${c.station}/${c.check}`)).toEqual(IDS);
    expect(r.report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("reports one seeded fault per row of the failure table, each with a fix", () => {
    const { repo, env } = tempProject(
      {
        ".toolplane/config.json": JSON.stringify({
          catalog: { budget: { chars: 1000 } },
          tools: {
            disabled: ["notes"],
            modules: [
              "tools/faulty.mjs",
              "tools/dup.mjs",
              { path: "tools/review.mjs", layer: "preset:reveiw" },
              "tools/dynamic.mjs",
              "tools/notes.mjs",
              "tools/broken.mjs",
            ],
          },
          scopes: { restrictions: { "preset:review": { deny: ["glob"] } } },
          permissions: { rules: [{ effect: "deny", tool: "grep" }] },
          doctor: { expect: { "preset:review": ["review_diff", "notes", "secret-helper", "glob", "grep"] } },
          // hook-commands: a hook whose script is not there
          hooks: {
            PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./hooks/gone.sh" }] }],
          },
        }),
        // 1 (args and expected output off-schema), 2 (a host key inside the schema), 9 (a run-time value copied into the description)
        "tools/faulty.mjs": `export const tools = ({ config }) => [{ name: "lookup",
        description: "Look up a record by id. Gives up after 120000 ms." + (config["tools.timeoutMs"] ?? ""),
        parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"], concurrencySafe: true }, output: ${output},
        execute: () => ({ status: "open" }),
        selection: { shouldSelect: [{ task: "look up record 7", args: { id: 7 }, expected: { status: "pending" } }], shouldNotSelect: [{ task: "send an email" }] } }];`,
        // 3: the same name again in the same layer
        "tools/dup.mjs": `export default [{ name: "lookup", description: "Another lookup.", parameters: { type: "object", properties: {} }, output: ${output}, execute: () => ({ status: "open" }) }];`,
        // 4: registered into a misspelt scope layer
        "tools/review.mjs": `export const tools = [{ name: "review_diff", description: "Review a diff.", parameters: { type: "object", properties: {} }, output: ${output}, execute: () => ({ status: "open" }) }];`,
        // 7: disabled by config
        "tools/notes.mjs": `export const tools = [{ name: "notes", description: "Keep notes.", parameters: { type: "object", properties: {} }, output: ${output}, execute: () => ({ status: "open" }) }];`,
        // 10 (tools): drops "scratch" without calling changed(); 5 and 10 (skills): the disk changes after the scan
        "tools/dynamic.mjs": `import { mkdirSync, rmSync, writeFileSync } from "node:fs";
        const skills = new URL("../.toolplane/skills/", import.meta.url);
        const tool = (name) => ({ name, description: "A " + name + " tool.", parameters: { type: "object", properties: {} }, output: ${output}, execute: () => ({ status: "open" }) });
        export function provider() {
          let reads = 0;
          return { enumerate() {
            reads++;
            if (reads === 1) {
              mkdirSync(new URL("fresh-skill/", skills), { recursive: true });
              writeFileSync(new URL("fresh-skill/SKILL.md", skills), "---\\nname: fresh-skill\\ndescription: Added after the scan.\\n---\\nbody\\n");
              rmSync(new URL("gone-skill/", skills), { recursive: true, force: true });
            }
            return reads === 1 ? [tool("stable"), tool("scratch")] : [tool("stable")];
          } };
        }`,
        ".toolplane/skills/gone-skill/SKILL.md": skill("gone-skill", "Deleted while the process ran."),
        // 11: a provider that throws
        "tools/broken.mjs": `export function provider() { return { enumerate() { throw new Error("backend down"); } }; }`,
        // 6: a rename that left the old copy
        ".toolplane/skills/deploy-app/SKILL.md": skill(
          "deploy-app",
          "Deploy the app to staging.\nRun the deploy script.",
        ),
        ".claude/skills/deploy/SKILL.md": skill(
          "deploy",
          "Deploy the app to staging.\nRun the deploy script.",
        ),
        // skill-files: one without a description (not loaded), one without a name
        ".toolplane/skills/no-description/SKILL.md": "---\nname: no-description\n---\nbody\n",
        ".toolplane/skills/no-name/SKILL.md": "---\ndescription: Has no name line.\n---\nbody\n",
        // 7: the model may not invoke it
        ".toolplane/skills/secret-helper/SKILL.md": skill(
          "secret-helper",
          "Rotate secrets.",
          "disable-model-invocation: true\n",
        ),
      },
      { trust: true },
    );
    // the sandbox row: bubblewrap missing (a path where there is none); the bash parser row: a
    // runtime name the parser would ignore
    const r = doctor(repo, { ...env, TOOLPLANE_BWRAP: "/nonexistent/bwrap", TOOLPLANE_BASH_PARSER: "wsam" });
    expect(r.code).toBe(1);
    for (const c of r.report.checks) {
      // the project is trusted here (its modules seed the faults): test/config/trust.test.ts seeds that row
      if (c.check === "untrusted-project") continue;
      expect(c.ok, `${c.station}/${c.check}: ${c.detail}`).toBe(false);
      expect(c.fix).toMatch(/\w/);
    }
    expect(r.byId.get("config/untrusted-project")?.ok).toBe(true);
    const d = (id: string) => r.byId.get(id)?.detail ?? "";
    expect(d("declare/schema-vs-implementation")).toMatch(/lookup selection.shouldSelect\[0\] args/);
    expect(d("declare/schema-vs-implementation")).toMatch(/expected output/);
    expect(d("declare/host-fields-leak")).toMatch(/concurrencySafe: host key \(tool lookup\)/);
    expect(d("register/same-name-override")).toMatch(
      /tool "lookup" from module:tools\/dup.mjs .* same layer/,
    );
    expect(d("register/layer-attribution")).toMatch(
      /"review_diff" is expected in "preset:review" but is registered in preset:reveiw/,
    );
    expect(d("discover/stale-discovery-cache")).toMatch(
      /"fresh-skill" is on disk but not in the discovered state/,
    );
    expect(d("discover/rename-leftover")).toMatch(/"deploy".*"deploy-app"|"deploy-app".*"deploy"/);
    expect(d("filter/missing-attachment")).toMatch(/"notes" .* disabled \(tools.disabled\)/);
    expect(d("filter/missing-attachment")).toMatch(/"secret-helper" .* model invocation is disabled/);
    expect(d("filter/missing-attachment")).toMatch(
      /"glob" .* withheld by the restriction of layer preset:review/,
    );
    expect(d("filter/missing-attachment")).toMatch(/"grep" .* denied by/);
    expect(r.byId.get("render/over-budget")?.findings?.[0]).toMatch(
      /^every provider: "\w+" cut from \d+ to \d+ chars/,
    );
    // a factory never sees a run-time key (it would have written 120000 twice), so the prefix
    // holds when one changes; the value copied into the text is still found
    expect(d("render/volatile-in-stable-prefix")).not.toMatch(/prefixHash changed/);
    expect(d("render/volatile-in-stable-prefix")).toMatch(
      /holds 120000, the value of run-time key tools.timeoutMs/,
    );
    expect(d("discover/skill-files")).toMatch(
      /no-description\/SKILL\.md: not loaded: line 1: description: is required/,
    );
    expect(d("discover/skill-files")).toMatch(
      /no-name\/SKILL\.md: loaded under its folder's name: line 1: name: is required/,
    );
    // both rows ran the live watcher probe too (it passed: the project's faults are what fail them)
    expect(d("discover/stale-discovery-cache")).toContain("a watched probe root given an add and a rename");
    expect(d("discover/stale-discovery-cache")).not.toContain("watch probe:");
    expect(d("invalidate/missed-deletion")).toMatch(/tool "scratch" .* still in the cached snapshot/);
    expect(d("invalidate/missed-deletion")).toMatch(/skill "gone-skill" .* deleted/);
    expect(d("hooks/hook-commands")).toMatch(
      /PreToolUse hook `\.\/hooks\/gone.sh` \(matcher "Bash"\).*hooks\/gone.sh does not exist/,
    );
    expect(d("register/provider-problems")).toMatch(
      /module:tools\/broken.mjs \(layer global\): rejected: backend down/,
    );
    expect(r.report).toMatchObject({
      problems: [
        { provider: "module:tools/broken.mjs", layer: "global", outcome: "rejected", reason: "backend down" },
      ],
    });
  });
});

describe("runDoctor from the package entry", () => {
  it("runs the same checks on a live plane as the CLI does", async () => {
    const { runDoctor, Toolplane } = await import("../../src/index.js");
    const { repo, env } = tempProject();
    const open = (set: string[] = []) => Toolplane.open({ cwd: repo, env, set, bundledSkills: null });
    const plane = await open();
    try {
      const report = await runDoctor({ plane, reopen: open });
      expect(report.checks.map((c) => `${c.station}/${c.check}`)).toEqual(IDS);
      expect(report.checks.filter((c) => c.station !== "tools" && !c.ok)).toEqual([]);
    } finally {
      await plane.close();
    }
  });
});
