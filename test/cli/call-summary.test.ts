// `toolplane call` tells the person what runs (the tool's display title and a summary of the
// arguments) before it runs: a summary is made only of arguments the tool takes, so a call the
// host will refuse shows the title alone, never "read undefined".
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

describe("toolplane call: the line that says what runs", () => {
  const p = tempProject({ "notes.txt": "hello\n" });
  const opts = { cwd: p.repo, env: p.env };

  it.each([
    ["read", "Read"],
    ["grep", "Search"],
    ["bash", "Bash"],
  ])("%s with arguments it does not take: the title alone, then the refusal", (tool, title) => {
    const r = runCli(["call", tool, "--args", "{}"], opts);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(title);
    expect(r.stderr).not.toContain("undefined");
    expect(r.stdout).toContain(`invalid arguments for ${tool}`);
  });

  it("with arguments it takes: the title and the summary", () => {
    const r = runCli(["call", "read", "--args", '{"path":"notes.txt"}'], opts);
    expect(r.code).toBe(0);
    expect(r.stderr.split("\n")[0]).toBe("Read: read notes.txt");
  });
});
