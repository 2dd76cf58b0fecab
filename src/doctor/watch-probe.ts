// A live test of the skill watcher in this process: a skill root of its own in a temp directory,
// watched the way a plane watches its roots (SkillWatcher, the same options), and three changes
// made to it (an add, a rename, a delete), each waited for. A full rescan right after a scan can
// never disagree with it, so this is what lets the stale-cache and missed-deletion rows fail when
// this machine's watcher does not deliver changes (a filesystem without events, an exhausted
// inotify limit, polling set up too slowly: CHOKIDAR_USEPOLLING with a long CHOKIDAR_INTERVAL).
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SkillDiscovery, SkillWatcher } from "../discover/index.js";

/** How long each change may take to reach the watched state (the watcher's default debounce is far below). */
export const PROBE_WAIT_MS = 5000;

export interface WatchProbe {
  /** Changes that added or changed a skill and were not seen in time (the stale-cache row). */
  missedAdds: string[];
  /** Deletions (a delete, a rename's old name) still held after the wait (the missed-deletion row). */
  missedDeletions: string[];
  /** The watcher could not start or reported an error. */
  errors: string[];
}

const skill = (name: string) => `---\nname: ${name}\ndescription: Doctor watch probe.\n---\nbody\n`;

/** How the probe starts its watcher: the plane's own way by default (a test gives a broken one). */
export type StartWatcher = (
  discovery: SkillDiscovery,
  options: Parameters<typeof SkillWatcher.start>[1],
) => Promise<{ close(): Promise<void> }>;

export async function probeWatcher(
  waitMs = PROBE_WAIT_MS,
  start: StartWatcher = (d, o) => SkillWatcher.start(d, o),
): Promise<WatchProbe> {
  const out: WatchProbe = { missedAdds: [], missedDeletions: [], errors: [] };
  const dir = mkdtempSync(path.join(os.tmpdir(), "toolplane-doctor-watch-"));
  const root = path.join(dir, "skills");
  const write = (name: string) => {
    mkdirSync(path.join(root, name), { recursive: true });
    writeFileSync(path.join(root, name, "SKILL.md"), skill(name));
  };
  write("probe-kept");
  // only the probe's root: HOME and the project are the temp directory, no bundled skills
  const discovery = new SkillDiscovery({ cwd: dir, env: { HOME: dir }, paths: [root], bundled: null });
  let watcher: { close(): Promise<void> } | undefined;
  try {
    watcher = await start(discovery, {
      onError: (error) => out.errors.push(error.message),
    });
    // by folder: a skill's name is its frontmatter's, which a rename of the folder keeps
    const names = async () =>
      new Set((await discovery.view([])).skills.map((s) => path.basename(path.dirname(s.path))));
    const until = async (test: (n: Set<string>) => boolean) => {
      const deadline = Date.now() + waitMs;
      for (;;) {
        if (test(await names())) return true;
        if (Date.now() >= deadline) return false;
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    write("probe-added");
    if (!(await until((n) => n.has("probe-added"))))
      out.missedAdds.push(`a skill added to a watched root was not seen within ${waitMs} ms`);
    renameSync(path.join(root, "probe-added"), path.join(root, "probe-renamed"));
    if (!(await until((n) => n.has("probe-renamed"))))
      out.missedAdds.push(
        `a skill renamed in a watched root was not seen under its new name within ${waitMs} ms`,
      );
    if (!(await until((n) => !n.has("probe-added"))))
      out.missedDeletions.push(`a renamed skill was still held under its old name after ${waitMs} ms`);
    rmSync(path.join(root, "probe-kept"), { recursive: true, force: true });
    if (!(await until((n) => !n.has("probe-kept"))))
      out.missedDeletions.push(`a deleted skill was still held after ${waitMs} ms`);
  } catch (error) {
    out.errors.push(`the watcher did not start: ${(error as Error).message}`);
  } finally {
    await watcher?.close().catch(() => {});
    discovery.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
