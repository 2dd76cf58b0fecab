import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { builtinFileTools } from "../../../src/tools/index.js";
import { testHost, textOf } from "../../helpers/host.js";
import { tempDir } from "../../helpers/tmp.js";

// A folder on the way to a file is swapped, over and over, between a real folder and a symlink to
// a folder outside the workspace. Whatever the timing, no read or grep may show the outside file.

const SWAPPER = `
const fs = require("node:fs");
const [dir, saved, outside] = process.argv.slice(1);
for (;;) {
  try { fs.renameSync(dir, saved); fs.symlinkSync(outside, dir); fs.unlinkSync(dir); fs.renameSync(saved, dir); } catch {}
}`;

const swappers: ChildProcess[] = [];
afterEach(() => {
  for (const child of swappers.splice(0)) child.kill("SIGKILL");
});

function racingWorkspace() {
  const root = tempDir("tp-race-");
  const ws = path.join(root, "ws");
  const outside = path.join(root, "outside");
  mkdirSync(path.join(ws, ".git"), { recursive: true });
  mkdirSync(path.join(ws, "d"));
  mkdirSync(outside);
  writeFileSync(path.join(ws, "d", "x.txt"), "marker INSIDE-TEXT\n");
  writeFileSync(path.join(outside, "x.txt"), "marker OUTSIDE-SECRET\n");
  const child = spawn(
    process.execPath,
    ["-e", SWAPPER, path.join(ws, "d"), path.join(ws, "d-saved"), outside],
    {
      stdio: "ignore",
    },
  );
  swappers.push(child);
  return { ws };
}

describe("a symlink swapped in between check and open leaks nothing", () => {
  // read: 1,000 reads while a folder on the path flips to outside; grep: 150 searches while a
  // folder flips between the count and the read (1.5% and 5% of them leaked before)
  it.each([
    ["read", 1000, { path: "d/x.txt" }],
    ["grep", 150, { pattern: "marker", output_mode: "content", "-C": 1 }],
  ] as const)("%s: %i calls", async (tool, calls, args) => {
    const { ws } = racingWorkspace();
    const { host } = testHost(builtinFileTools(), { workspace: ws });
    let leaked = 0;
    let shown = 0;
    for (let i = 0; i < calls; i++) {
      const text = textOf(await host.call({ tool, args }));
      if (text.includes("OUTSIDE-SECRET")) leaked++;
      if (text.includes("INSIDE-TEXT")) shown++;
    }
    expect(leaked).toBe(0);
    // the race ran: some calls got through to the inside file
    expect(shown).toBeGreaterThan(0);
  });
});
