import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

function project() {
  const p = tempProject({ "notes.txt": "alpha\n" });
  const home = path.join(p.home, ".toolplane");
  const env = { ...p.env, TOOLPLANE_HOME: home };
  const call = (args: string[]) => runCli(["call", ...args], { cwd: p.repo, env });
  return { ...p, home, env, call };
}

const READ = ["read", "--args", '{"path": "notes.txt"}'];
const EDIT = ["edit", "--yes", "--args", '{"path": "notes.txt", "oldString": "alpha", "newString": "beta"}'];

describe("toolplane call --session: one session across calls from a shell", () => {
  it("read, then edit in a later call of the same session", () => {
    const p = project();
    expect(p.call([...READ, "--session", "s1"]).code).toBe(0);
    const edit = p.call([...EDIT, "--session", "s1"]);
    expect(edit.code, edit.stdout + edit.stderr).toBe(0);
    expect(readFileSync(path.join(p.repo, "notes.txt"), "utf8")).toBe("beta\n");
    // saved for the user alone, with the file's stamp
    const saved = path.join(p.home, "sessions", "s1.json");
    expect(JSON.parse(readFileSync(saved, "utf8")).files.length).toBe(1);
  });

  it("without --session the edit is refused, and the CLI says how to keep a session", () => {
    const p = project();
    expect(p.call(READ).code).toBe(0);
    const edit = p.call(EDIT);
    expect(edit.code).toBe(1);
    expect(edit.stdout).toMatch(/has not been read in this session/);
    expect(edit.stderr).toMatch(/pass the same --session ID/);
    // another session's reads do not count either
    expect(p.call([...READ, "--session", "a"]).code).toBe(0);
    expect(p.call([...EDIT, "--session", "b"]).code).toBe(1);
  });

  it("the deferred tools a session loaded stay loaded in its next call", () => {
    const p = project();
    const set = ["--set", "tools.examples=true", "--set", 'defer.tools={"ticket_status":"always"}'];
    const r = p.call(["ticket_status", "--args", '{"ticket_id": "T-1001"}', "--session", "t", ...set]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/loaded for this call/);
    const saved = JSON.parse(readFileSync(path.join(p.home, "sessions", "t.json"), "utf8"));
    expect(saved.loaded).toEqual(["ticket_status"]);
    // already loaded: no note the second time
    const again = p.call(["ticket_status", "--args", '{"ticket_id": "T-1001"}', "--session", "t", ...set]);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toMatch(/loaded for this call/);
  });

  it("a session unused for results.spillMaxAgeHours is removed by a later call", () => {
    const p = project();
    expect(p.call([...READ, "--session", "old"]).code).toBe(0);
    const saved = path.join(p.home, "sessions", "old.json");
    const past = new Date(Date.now() - 200 * 3_600_000);
    utimesSync(saved, past, past);
    expect(p.call([...READ, "--session", "new", "--set", "results.spillMaxAgeHours=100"]).code).toBe(0);
    expect(existsSync(saved)).toBe(false);
    expect(existsSync(path.join(p.home, "sessions", "new.json"))).toBe(true);
  });

  it("a bad ID is a usage error; an unreadable saved session says to remove it", () => {
    const p = project();
    const bad = p.call([...READ, "--session", "../x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--session "..\/x": use letters, digits/);
    expect(p.call([...READ, "--session", "c"]).code).toBe(0);
    writeFileSync(path.join(p.home, "sessions", "c.json"), "{not json");
    const broken = p.call([...READ, "--session", "c"]);
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toMatch(/not a saved toolplane session; remove it to start the session afresh/);
  });
});
