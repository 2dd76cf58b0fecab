import path from "node:path";
import { describe, expect, it } from "vitest";
import { SkillDiscovery } from "../../src/discover/index.js";
import { progress } from "../../src/util/progress.js";
import { runCli } from "../helpers/cli.js";
import { tempProject, writeTree } from "../helpers/tmp.js";

function stream(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, written, write: (t: string) => written.push(t) };
}

describe("progress", () => {
  it("writes nothing at all when the stream is not a terminal", () => {
    // a pipe (isTTY false) and a stream that does not say (isTTY undefined)
    const piped = stream(false);
    const unsaid: string[] = [];
    for (const s of [piped, { write: (t: string) => unsaid.push(t) }]) {
      const bar = progress("scan", s);
      bar.update(1, 10, "a");
      bar.update(10, 10);
      bar.note("step 2");
      bar.done();
    }
    expect(piped.written).toEqual([]);
    expect(unsaid).toEqual([]);
  });

  it("on a terminal: draws in place, always draws the last step, keeps notes, clears at the end", () => {
    const s = stream(true);
    const bar = progress("scan", s);
    bar.update(0, 3);
    bar.update(3, 3, "(12 entries)");
    bar.note("bench read (2/8)...");
    bar.update(1);
    bar.done();
    bar.done();
    expect(s.written).toEqual([
      "\r\x1b[Kscan 0/3",
      "\r\x1b[Kscan 3/3 (12 entries)",
      "\r\x1b[Kbench read (2/8)...\n",
      "\r\x1b[Kscan 1",
      "\r\x1b[K",
    ]);
  });

  it("skill discovery reports its scan of many roots through the factory it was given", async () => {
    const p = tempProject();
    const files: Record<string, string> = {};
    const paths: string[] = [];
    for (let r = 0; r < 12; r++) {
      paths.push(path.join(p.root, `root-${r}`));
      for (let i = 0; i < 3; i++) {
        files[`root-${r}/s${r}x${i}/SKILL.md`] =
          `---\nname: s${r}x${i}\ndescription: skill ${i}\n---\nbody\n`;
      }
    }
    writeTree(p.root, files);
    const tty = stream(true);
    const labels: string[] = [];
    const discovery = new SkillDiscovery({
      cwd: p.repo,
      env: p.env,
      paths,
      bundled: null,
      progress: (label) => {
        labels.push(label);
        return progress(label, tty);
      },
    });
    const view = await discovery.view([]);
    expect(view.skills).toHaveLength(36);
    expect(labels).toEqual(["skills: scanning roots"]);
    const last = tty.written.filter((w) => w.includes("scanning")).at(-1)!;
    expect(last).toMatch(/scanning roots (\d+)\/\1 \(36 entries\)/);
    expect(tty.written.at(-1)).toBe("\r\x1b[K");
    discovery.close();
  });

  it("the CLI, with stderr a pipe, prints no progress", () => {
    const p = tempProject({ ".agents/skills/demo/SKILL.md": "---\nname: demo\ndescription: d\n---\n" });
    const r = runCli(["skills", "--json"], { cwd: p.repo, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
  });
});
