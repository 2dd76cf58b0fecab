// `toolplane call bash` with secrets planted in the home folder, elsewhere on the disk and in the
// workspace: the read-only set still works unasked (in a read-only sandbox that hides .env), an
// approved opaque program reads no secret outside the workspace, and a project nobody trusted
// cannot show the sandbox more of the disk.
import { spawnSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CONFIG_KEYS } from "../../src/config/index.js";
import { sandboxSupport } from "../../src/tools/sandbox/bwrap.js";
import { SYSTEM_FOLDERS } from "../../src/tools/sandbox/mounts.js";
import { runCli } from "../helpers/cli.js";
import { nodeReads, plantSecrets, SECRET } from "../helpers/secrets.js";
import { tempDir, writeTree } from "../helpers/tmp.js";

const support = sandboxSupport();
const missing = support.available ? "" : ` [skipped: ${support.reason}; .ci/run installs it]`;
const nodeShown = SYSTEM_FOLDERS.some((d) => process.execPath.startsWith(`${d}/`))
  ? []
  : [path.dirname(path.dirname(process.execPath))];
const rg = spawnSync("sh", ["-c", "command -v rg"], { encoding: "utf8" }).stdout.trim();

describe(`toolplane call bash: the sandbox shows only what the read tool may read${missing}`, () => {
  let planted: ReturnType<typeof plantSecrets>;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    planted = plantSecrets();
    repo = tempDir("tp-secrets-");
    writeTree(repo, { "a.txt": "line one\nline two\n", ".env": SECRET.dotenv });
    const git = (...a: string[]) =>
      spawnSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@e", ...a], { encoding: "utf8" });
    git("init", "-q");
    git("add", "a.txt");
    git("commit", "-qm", "first");
    writeFileSync(path.join(repo, "a.txt"), "line one\nline 2\n");
    env = { HOME: planted.home, PATH: process.env.PATH ?? "" };
  });

  const call = (command: string, ...more: string[]) =>
    runCli(["call", "bash", "--json", "--cwd", repo, "--args", JSON.stringify({ command }), ...more], {
      env,
    });

  it.skipIf(!support.available)(
    "ls, cat, head, wc, rg and git status|log|diff|show run unasked and work, read-only; .env and the home folder are not there",
    () => {
      const index = statSync(path.join(repo, ".git", "index")).mtimeMs;
      const p = planted.paths;
      const line = [
        "ls -la",
        "cat a.txt",
        "head -n 1 a.txt",
        "wc -l a.txt",
        ...(rg ? ["rg -n two a.txt"] : []),
        "git status --short",
        "git log --oneline",
        "git diff",
        "git show --stat HEAD",
        // the boundary is off below: the permission check lets these reads through, the sandbox not
        `cat ${p.aws}`,
        `cat ${p.homeFile}`,
        `cat ${p.outside}`,
      ].join("; ");
      const r = call(line, "--set", "permissions.workspaceBoundary=false");
      expect(r.code, r.stderr).toBe(0);
      const result = JSON.parse(r.stdout);
      const out: string = result.content[0].text;
      expect(result.value.sandbox).toBe("read-only");
      expect(out).toMatch(/-{10} +\d+ \S+ \S+ +0 .* \.env\n/); // there, empty and unreadable
      expect(out).toContain("line one\nline 2\n");
      expect(out).toMatch(/^2 a\.txt$/m);
      expect(out).toContain(" M a.txt");
      expect(out).toMatch(/^[0-9a-f]{7,} first$/m);
      expect(out).toContain("-line two\n+line 2");
      expect(out).toMatch(/a\.txt \| 2 \+\+/);
      for (const f of [p.aws, p.homeFile, p.outside])
        expect(out).toContain(`cat: ${f}: No such file or directory`);
      for (const s of Object.values(SECRET)) expect(out).not.toContain(s);
      // git status did not refresh the index: nothing is written
      expect(statSync(path.join(repo, ".git", "index")).mtimeMs).toBe(index);
    },
  );

  it.skipIf(!support.available)(
    "an approved opaque program reads no secret outside the workspace, runs a default toolchain, writes the workspace; a project nobody trusted cannot show it ~/.ssh",
    () => {
      writeTree(repo, {
        ".toolplane/config.json": JSON.stringify({ tools: { sandboxReadable: ["~/.ssh", "/"] } }),
      });
      const p = planted.paths;
      const command = `${nodeReads([p.ssh, p.aws, p.homeFile, p.outside, p.npmrc])}; ${p.probe}; node -e "require('fs').writeFileSync('made.txt', 'x')"`;
      // node runs from a system folder here, else from its own folder added to the default list
      const toolchains = [...(CONFIG_KEYS["tools.sandboxToolchains"].default as string[]), ...nodeShown];
      const r = call(
        command,
        "--yes",
        ...(nodeShown.length > 0 ? ["--set", `tools.sandboxToolchains=${JSON.stringify(toolchains)}`] : []),
      );
      const result = JSON.parse(r.stdout);
      const out: string = result.content[0].text;
      expect(result.value).toMatchObject({ sandbox: "workspace-write", exitCode: 0 });
      for (const s of [SECRET.ssh, SECRET.aws, SECRET.homeFile, SECRET.outside, SECRET.npmrc])
        expect(out).not.toContain(s);
      for (const f of [p.ssh, p.aws, p.homeFile, p.outside]) expect(out).toContain(`${f} FAILED ENOENT`);
      expect(out).toContain(`${p.npmrc} FAILED EACCES`);
      expect(out).toContain("toolchain-ran");
      expect(readFileSync(path.join(repo, "made.txt"), "utf8")).toBe("x");
      expect(r.stderr).toMatch(/tools\.sandboxReadable/); // the project's value was not applied, and it says so
    },
  );
});
