import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { clearIndexCache, peekIndex } from "../../../src/tools/read/index-cache.js";
import { evict, SIDECAR_MIN_BYTES } from "../../../src/tools/read/index-store.js";
import { readPath } from "../../../src/tools/read/read-path.js";
import { CLI } from "../../helpers/cli.js";
import { tempDir, tempProject } from "../../helpers/tmp.js";

/**
 * The line index kept on disk: a new process (here: the in-memory cache cleared) reads a deep page
 * from the saved counts instead of scanning to it, a file that only grew keeps them, and a
 * sidecar that does not describe the file, or is damaged, is thrown away and the index rebuilt.
 * Which one happened is seen in how much of the file the index covers after a shallow read: a
 * rebuilt index covers only what that read needed, a loaded one what the earlier deep read did.
 */
const dir = tempDir("tp-sidecar-");
const cacheRoot = path.join(dir, "cache");
const store = path.join(cacheRoot, "line-index");
const ctx = { cwd: dir, workspace: dir, config: {} };
const before = process.env.TOOLPLANE_CACHE_DIR;

/** Lines `row N ...` of varied length, past the size from which indexes are kept. */
function makeFile(
  name: string,
  bytes = SIDECAR_MIN_BYTES + 4 * 1024 * 1024,
): { file: string; lines: string[] } {
  const lines: string[] = [];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const line = `row ${i} ${"abcdefghij".repeat(1 + (i % 9))}`;
    lines.push(line);
    size += line.length + 1;
  }
  const file = path.join(dir, name);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return { file, lines };
}

async function page(name: string, offset: number, limit = 3): Promise<string[]> {
  const v = await readPath({ path: name, offset, limit }, ctx);
  if (v.kind !== "file") throw new Error("expected text");
  return v.lines;
}

/** The sidecar with its last running count one lower: well formed, only the checksum tells. */
function lastCountLess(sidecar: Buffer): Buffer {
  const out = Buffer.from(sidecar);
  out.writeDoubleLE(out.readDoubleLE(out.length - 8) - 1, out.length - 8);
  return out;
}

const sidecars = () => (existsSync(store) ? readdirSync(store).filter((n) => n.endsWith(".idx")) : []);
const covered = (file: string) => peekIndex(file)?.scannedBytes ?? 0;

beforeEach(() => {
  process.env.TOOLPLANE_CACHE_DIR = cacheRoot;
  clearIndexCache();
});
afterAll(() => {
  if (before === undefined) delete process.env.TOOLPLANE_CACHE_DIR;
  else process.env.TOOLPLANE_CACHE_DIR = before;
});

describe("the line index on disk", () => {
  it("a new process reads a deep page from the saved counts; the store is the user's own", async () => {
    const { file, lines } = makeFile("deep.txt");
    const deep = Math.floor(lines.length * 0.9);
    expect(await page("deep.txt", deep)).toEqual(lines.slice(deep - 1, deep + 2));
    const scanned = covered(file);
    expect(sidecars()).toHaveLength(1);
    expect(statSync(store).mode & 0o777).toBe(0o700);
    expect(statSync(cacheRoot).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(store, sidecars()[0]!)).mode & 0o777).toBe(0o600);

    clearIndexCache();
    expect(await page("deep.txt", 10)).toEqual(lines.slice(9, 12));
    expect(covered(file)).toBe(scanned);
    expect(await page("deep.txt", deep)).toEqual(lines.slice(deep - 1, deep + 2));
    // without the store, the same shallow read covers only its own start
    process.env.TOOLPLANE_CACHE_DIR = "";
    clearIndexCache();
    expect(await page("deep.txt", 10)).toEqual(lines.slice(9, 12));
    expect(covered(file)).toBeLessThan(scanned / 10);
  });

  it("appending extends the saved index instead of rebuilding it", async () => {
    const { file, lines } = makeFile("grows.txt");
    const deep = Math.floor(lines.length * 0.9);
    await page("grows.txt", deep);
    const scanned = covered(file);
    const more = Array.from({ length: 5000 }, (_, i) => `appended ${i}`);
    appendFileSync(file, `${more.join("\n")}\n`);
    const all = [...lines, ...more];
    clearIndexCache();
    expect(await page("grows.txt", 10)).toEqual(all.slice(9, 12));
    // the whole chunks of the old end are kept: at most one chunk short of what was scanned
    expect(covered(file)).toBeGreaterThan(scanned - 64 * 1024 - 1);
    expect(await page("grows.txt", lines.length + 4000)).toEqual(
      all.slice(lines.length + 3999, lines.length + 4002),
    );
    // in the same process too: the cached version is stale, the saved counts still apply
    appendFileSync(file, "last one\n");
    expect(await page("grows.txt", all.length + 1, 1)).toEqual(["last one"]);
  });

  it("a file that grew but was changed before its old end is indexed anew", async () => {
    const { file, lines } = makeFile("rewritten.txt");
    await page("rewritten.txt", Math.floor(lines.length * 0.9));
    // written in place (same inode), one line longer at the start: not an append
    const changed = ["a new first line", ...lines];
    writeFileSync(file, `${changed.join("\n")}\n`);
    clearIndexCache();
    const deep = Math.floor(changed.length * 0.8);
    expect(await page("rewritten.txt", deep)).toEqual(changed.slice(deep - 1, deep + 2));
  });

  it("a change that keeps the size and mtime, or a new file under the name, is not taken for the old one", async () => {
    const { file, lines } = makeFile("same-size.txt");
    // a whole second, so that putting it back below restores it to the nanosecond
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    const deep = Math.floor(lines.length * 0.5);
    await page("same-size.txt", deep);
    // the same bytes count, one line break moved: only ctime tells (mtime put back)
    const text = readFileSync(file, "utf8");
    // a quarter in (past the bytes kept as witnesses, so only the version can tell): the last line
    // break before a 64 KiB chunk boundary moves just past it, so two chunks' counts change
    const boundary = Math.ceil(text.length / 4 / 65536) * 65536;
    const at = text.lastIndexOf("\n", boundary - 1);
    const moved = `${text.slice(0, at)}${text.slice(at + 1, boundary + 1)}\n${text.slice(boundary + 1)}`;
    expect(moved.length).toBe(text.length);
    const fd = openSync(file, "r+");
    writeSync(fd, moved);
    closeSync(fd);
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    clearIndexCache();
    const now = moved.split("\n");
    // the line that started after the moved break, and the pages around it
    const line = text.slice(0, at + 1).split("\n").length;
    expect(await page("same-size.txt", line - 1)).toEqual(now.slice(line - 2, line + 1));
    expect(await page("same-size.txt", line)).toEqual(now.slice(line - 1, line + 2));
    expect(await page("same-size.txt", deep)).toEqual(now.slice(deep - 1, deep + 2));
    // a different file renamed over it: another inode
    const other = makeFile("other.txt", SIDECAR_MIN_BYTES + 1024 * 1024);
    renameSync(other.file, file);
    clearIndexCache();
    expect(await page("same-size.txt", 1000)).toEqual(other.lines.slice(999, 1002));
  });

  it("a damaged sidecar is thrown away and the index rebuilt", async () => {
    const { file, lines } = makeFile("damaged.txt");
    const deep = Math.floor(lines.length * 0.9);
    await page("damaged.txt", deep);
    const sidecar = path.join(
      store,
      sidecars().find((n) => readFileSync(path.join(store, n)).includes(file))!,
    );
    const good = readFileSync(sidecar);
    const cases: Array<[string, Buffer]> = [
      ["a count one less, still a running count", lastCountLess(good)],
      ["a count that is no count", Buffer.concat([good.subarray(0, good.length - 8), Buffer.alloc(8, 0x41)])],
      ["cut short", good.subarray(0, good.length - 100)],
      ["not a sidecar", Buffer.from("hello")],
      ["empty", Buffer.alloc(0)],
    ];
    for (const [what, bad] of cases) {
      writeFileSync(sidecar, bad);
      clearIndexCache();
      // the page deep in the last chunk first, where a wrong count would misplace it
      const last = lines.length - 5;
      expect(await page("damaged.txt", last), what).toEqual(lines.slice(last - 1, last + 2));
      expect(await page("damaged.txt", deep), what).toEqual(lines.slice(deep - 1, deep + 2));
    }
  });

  it("a store folder others may write to is made the user's own again", async () => {
    makeFile("perm.txt");
    mkdirSync(store, { recursive: true });
    chmodSync(store, 0o777);
    await page("perm.txt", 100_000);
    expect(statSync(store).mode & 0o777).toBe(0o700);
  });

  it("the store stays within its bounds, dropping what was used longest ago", async () => {
    const evictDir = path.join(dir, "evict");
    mkdirSync(evictDir);
    for (let i = 0; i < 5; i++) {
      const f = path.join(evictDir, `${i}.idx`);
      writeFileSync(f, Buffer.alloc(1000));
      utimesSync(f, 1000 + i, 1000 + i);
    }
    await evict(evictDir, 1_000_000, 3);
    expect(readdirSync(evictDir).sort()).toEqual(["2.idx", "3.idx", "4.idx"]);
    await evict(evictDir, 1500, 10);
    expect(readdirSync(evictDir)).toEqual(["4.idx"]);
  });

  it("a second `toolplane call read` process reads the deep page from the first one's index", () => {
    const p = tempProject();
    const lines = Array.from({ length: 400_000 }, (_, i) => `line ${i + 1} ${"x".repeat(20)}`);
    writeFileSync(path.join(p.repo, "big.txt"), `${lines.join("\n")}\n`);
    const call = () =>
      spawnSync(
        process.execPath,
        [CLI, "call", "read", "--json", "--args", '{"path": "big.txt", "offset": 360000, "limit": 2}'],
        {
          cwd: p.repo,
          env: p.bareEnv,
          encoding: "utf8",
        },
      );
    const first = call();
    expect(first.status).toBe(0);
    const saved = path.join(p.home, ".cache", "toolplane", "line-index");
    expect(readdirSync(saved).filter((n) => n.endsWith(".idx"))).toHaveLength(1);
    const second = call();
    expect(second.status).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stdout).toContain("line 360001 ");
  });
});
