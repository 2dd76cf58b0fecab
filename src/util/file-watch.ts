import { existsSync } from "node:fs";
import path from "node:path";
import { type FSWatcher, watch } from "chokidar";

/**
 * Watches a few files that may not exist yet (the user's and the project's config.json): each from
 * its nearest existing ancestor, seeing only the directories on the way down to it, so a file (or
 * its folder) created later is seen, and nothing else in a large tree is walked.
 */
export class FileWatch {
  private constructor(private readonly watchers: FSWatcher[]) {}

  static async start(files: readonly string[], onChange: (file: string) => void): Promise<FileWatch> {
    const watchers: FSWatcher[] = [];
    for (const file of [...new Set(files.map((f) => path.resolve(f)))]) {
      const base = nearestExisting(path.dirname(file));
      const chain = new Set<string>([base]);
      for (let p = file; p !== base && p !== path.dirname(p); p = path.dirname(p)) chain.add(p);
      const depth = path.relative(base, file).split(path.sep).length;
      const watcher = watch(base, {
        ignoreInitial: true,
        depth,
        ignored: (p: string) => !chain.has(path.resolve(p)),
      });
      const fire = (p: string) => {
        if (path.resolve(p) === file) onChange(file);
      };
      watcher.on("add", fire).on("change", fire).on("unlink", fire);
      // a folder on the way removed or made: the file may have gone or come with it
      watcher.on("addDir", () => existsSync(file) && onChange(file)).on("unlinkDir", () => onChange(file));
      watcher.on("error", () => {});
      await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
      watchers.push(watcher);
    }
    return new FileWatch(watchers);
  }

  async close(): Promise<void> {
    await Promise.all(this.watchers.map((w) => w.close()));
  }
}

function nearestExisting(dir: string): string {
  let d = dir;
  while (!existsSync(d) && path.dirname(d) !== d) d = path.dirname(d);
  return d;
}
