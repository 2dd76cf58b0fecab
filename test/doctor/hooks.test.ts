// doctor's hooks row: the hooks in force, and each command's program looked up as the shell
// would start it: missing or not executable fails the row; what only a shell can tell is unchecked.
import { chmodSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import { hooksCheck } from "../../src/doctor/hooks.js";
import { tempProject } from "../helpers/tmp.js";

const planes: Toolplane[] = [];
afterEach(async () => {
  for (const p of planes.splice(0)) await p.close();
});

describe("doctor: hooks/hook-commands", () => {
  it("lists the hooks in force and flags a command that does not exist or cannot run", async () => {
    const p = tempProject({
      "hooks/ok.sh": "#!/bin/sh\n",
      "hooks/plain.sh": "#!/bin/sh\n",
      "hooks/check.py": "",
    });
    chmodSync(path.join(p.repo, "hooks/ok.sh"), 0o755);
    const commands = [
      '"$CLAUDE_PROJECT_DIR"/hooks/ok.sh', // ok: the variable the hook is given
      "hooks/plain.sh", // not executable
      "./hooks/gone.sh --flag", // missing
      "python3 $CLAUDE_PROJECT_DIR/hooks/missing.py", // the interpreter's script is missing
      "sh hooks/check.py", // ok
      "no-such-program-xyz", // not on PATH
      "echo '{}'", // a builtin
      "$MY_HOOKS/run.sh", // unchecked: known only when it runs
      "FOO=1 ./hooks/ok.sh", // unchecked: an assignment first
    ];
    const hooks = [{ matcher: "Bash", hooks: commands.map((command) => ({ type: "command", command })) }];
    const plane = await Toolplane.open({
      cwd: p.repo,
      env: p.bareEnv,
      bundledSkills: null,
      set: [`hooks.PreToolUse=${JSON.stringify(hooks)}`],
    });
    planes.push(plane);
    plane.hooks.on("PostToolUse", function audit() {});
    const row = hooksCheck({ plane, reopen: () => Promise.reject(new Error("not used")) });
    expect(row).toMatchObject({ station: "hooks", check: "hook-commands", ok: false });
    expect(row.findings).toEqual([
      expect.stringMatching(
        /`hooks\/plain.sh` \(matcher "Bash"\), from --set \(cli\): .*hooks\/plain.sh is not executable$/,
      ),
      expect.stringMatching(/`\.\/hooks\/gone.sh --flag`.*: .*hooks\/gone.sh does not exist$/),
      expect.stringMatching(/`python3 .*missing.py`.*: .*hooks\/missing.py does not exist$/),
      expect.stringMatching(/`no-such-program-xyz`.*: no-such-program-xyz does not exist$/),
    ]);
    expect(row.detail).toMatch(/^10 hook\(s\) in force/);
    expect(row.detail).toMatch(/ok.sh` .*: runs .*hooks\/ok.sh/);
    expect(row.detail).toMatch(
      /`\$MY_HOOKS\/run.sh`.*: unchecked \(\$MY_HOOKS is known only when the hook runs\)/,
    );
    expect(row.detail).toMatch(/`FOO=1 .*: unchecked \(it starts with a variable assignment\)/);
    expect(row.detail).toMatch(/PostToolUse hook `audit`, from in-process \(plane.hooks\): a function/);
  });
});
