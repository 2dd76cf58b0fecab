import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import { runJson } from "../helpers/cli.js";
import { textOf } from "../helpers/host.js";
import { tempDir, tempProject } from "../helpers/tmp.js";

// A spilled result names a file the model is told to read: read and grep must reach it for the
// rest of the session; the session's directory goes when the session closes, and old ones of
// ended sessions are swept when a session opens. The spilling call is a shell command's output
// (grep and read page their results within the inline limit, so they never spill).

/** Lets bash run without an approver or a sandbox: what spills here is `cat`'s output. */
const BASH = ["tools.sandbox=off", 'permissions.rules=[{"effect":"allow","tool":"bash"}]'];
const CAT = { command: "cat big.txt" };

const planes: Toolplane[] = [];
afterEach(async () => {
  for (const plane of planes.splice(0)) await plane.close();
});

function spillingProject() {
  const lines = Array.from({ length: 400 }, (_, i) => `needle line ${i + 1} ${"pad ".repeat(10)}`);
  const p = tempProject({ "big.txt": `${lines.join("\n")}\n` });
  const spillDir = path.join(tempDir("tp-spillbase-"), "spill");
  return { ...p, spillDir };
}

async function open(p: ReturnType<typeof spillingProject>, set: string[] = []) {
  const plane = await Toolplane.open({
    cwd: p.repo,
    env: p.env,
    bundledSkills: null,
    set: ["results.inlineMaxBytes=4000", `results.spillDir=${JSON.stringify(p.spillDir)}`, ...BASH, ...set],
  });
  planes.push(plane);
  return plane;
}

describe("spill files are readable for the session", () => {
  it("the read the preview asks for works, and grep can search the file", async () => {
    const p = spillingProject();
    const plane = await open(p);
    const big = await plane.call("bash", CAT);
    expect(big.spillPath).toBeDefined();
    const call = /call read with (\{.*?\})/.exec(textOf(big));
    expect(call).not.toBeNull();
    const args = JSON.parse(call![1]!) as { path: string; offset: number };
    expect(args.path).toBe(big.spillPath);
    const page = await plane.call("read", args);
    expect(page.isError, textOf(page)).toBe(false);
    expect(textOf(page)).toMatch(new RegExp(`^${args.offset}\\t`));
    const found = await plane.call("grep", {
      pattern: "needle line 399 ",
      path: big.spillPath,
      output_mode: "content",
    });
    expect(found.isError, textOf(found)).toBe(false);
    expect(textOf(found)).toContain("needle line 399");
  });
});

describe("spill directories do not pile up", () => {
  it("close() removes the session's directory; results.keepSpill keeps it", async () => {
    const p = spillingProject();
    const plane = await open(p);
    const { spillPath } = await plane.call("bash", CAT);
    expect(existsSync(spillPath!)).toBe(true);
    await plane.close();
    expect(existsSync(path.dirname(spillPath!))).toBe(false);

    const kept = await open(p, ["results.keepSpill=true"]);
    const again = await kept.call("bash", CAT);
    await kept.close();
    expect(existsSync(again.spillPath!)).toBe(true);
  });

  it("opening a session sweeps ended sessions' directories older than results.spillMaxAgeHours", async () => {
    const p = spillingProject();
    mkdirSync(p.spillDir, { recursive: true, mode: 0o700 });
    const make = (name: string, hoursOld: number, owner?: number) => {
      const dir = path.join(p.spillDir, name);
      mkdirSync(dir);
      writeFileSync(path.join(dir, "0001-grep.txt"), "x".repeat(1000));
      if (owner !== undefined) writeFileSync(path.join(dir, ".owner"), `${owner}\n`);
      const t = new Date(Date.now() - hoursOld * 3_600_000);
      utimesSync(dir, t, t);
    };
    make("session-old-aaaaaa", 30, 2 ** 22 + 12345); // its process is gone (past the pid limit)
    make("session-nopid-bbbbbb", 30);
    make("session-fresh-cccccc", 1, 2 ** 22 + 12345);
    make("session-live-dddddd", 30, process.pid); // a session still running
    make("not-ours", 30);
    // shaped like a session folder, but without the owner marker: in a base the user chose it
    // may be their own folder, so only the default base sweeps such folders
    make("feature-branch", 30);
    const plane = await open(p);
    expect(await plane.swept).toBe(1);
    expect(readdirSync(p.spillDir).sort()).toEqual([
      ".swept",
      "feature-branch",
      "not-ours",
      "session-fresh-cccccc",
      "session-live-dddddd",
      "session-nopid-bbbbbb",
    ]);
    const strict = await open(p, ["results.spillMaxAgeHours=0"]);
    expect(await strict.swept).toBe(1);
    expect(readdirSync(p.spillDir).sort()).toEqual([
      ".swept",
      "feature-branch",
      "not-ours",
      "session-live-dddddd",
      "session-nopid-bbbbbb",
    ]);
  });

  it("a base swept within the interval (a sixtieth of the age limit, an hour at most) is not swept again", async () => {
    const p = spillingProject();
    mkdirSync(p.spillDir, { recursive: true, mode: 0o700 });
    const old = (name: string) => {
      const dir = path.join(p.spillDir, name);
      mkdirSync(dir);
      writeFileSync(path.join(dir, ".owner"), `${2 ** 22 + 12345}\n`);
      const t = new Date(Date.now() - 30 * 3_600_000);
      utimesSync(dir, t, t);
    };
    old("session-one-aaaaaa");
    expect(await (await open(p)).swept).toBe(1);
    old("session-two-bbbbbb");
    // 24 minutes with the default 24 hours
    expect(await (await open(p)).swept).toBe(0);
    expect(readdirSync(p.spillDir)).toContain("session-two-bbbbbb");
    const marker = path.join(p.spillDir, ".swept");
    const before = new Date(Date.now() - 25 * 60_000);
    utimesSync(marker, before, before);
    expect(await (await open(p)).swept).toBe(1);
    expect(readdirSync(p.spillDir)).not.toContain("session-two-bbbbbb");
  });

  it("toolplane call keeps the file it names: it is there after the process ends", () => {
    const p = spillingProject();
    const out = runJson(
      [
        "call",
        "bash",
        "--args",
        JSON.stringify(CAT),
        ...BASH.flatMap((s) => ["--set", s]),
        "--set",
        "results.inlineMaxBytes=4000",
        "--set",
        `results.spillDir=${JSON.stringify(p.spillDir)}`,
      ],
      { cwd: p.repo, env: p.env },
    );
    expect(out.spillPath).toBeDefined();
    expect(existsSync(out.spillPath)).toBe(true);
  });
});
