import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { listingOf } from "../helpers/listing.js";

/**
 * Counts the bytes read from one file by the code under test, through every read it uses
 * (node:fs sync reads, node:fs/promises readFile and file handles). File-scoped mocks: only this
 * test file sees them.
 */
const watched = { file: "", bytes: 0, fds: new Set<number>() };

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const openSync = (...args: Parameters<typeof fs.openSync>) => {
    const fd = fs.openSync(...args);
    if (String(args[0]) === watched.file) watched.fds.add(fd);
    return fd;
  };
  const readSync = ((fd: number, ...rest: unknown[]) => {
    const n = (fs.readSync as (...a: unknown[]) => number)(fd, ...rest);
    if (watched.fds.has(fd)) watched.bytes += n;
    return n;
  }) as typeof fs.readSync;
  const readFileSync = ((file: unknown, ...rest: unknown[]) => {
    const out = (fs.readFileSync as (...a: unknown[]) => string | Buffer)(file, ...rest);
    if (String(file) === watched.file) watched.bytes += out.length;
    return out;
  }) as typeof fs.readFileSync;
  const closeSync = (fd: number) => {
    watched.fds.delete(fd);
    fs.closeSync(fd);
  };
  return {
    ...fs,
    default: { ...fs, openSync, readSync, readFileSync, closeSync },
    openSync,
    readSync,
    readFileSync,
    closeSync,
  };
});

vi.mock("node:fs/promises", async (importOriginal) => {
  const fsp = await importOriginal<typeof import("node:fs/promises")>();
  const readFile = (async (file: unknown, ...rest: unknown[]) => {
    const out = await (fsp.readFile as (...a: unknown[]) => Promise<string | Buffer>)(file, ...rest);
    if (String(file) === watched.file) watched.bytes += out.length;
    return out;
  }) as typeof fsp.readFile;
  const open = (async (file: unknown, ...rest: unknown[]) => {
    const handle = await (fsp.open as (...a: unknown[]) => Promise<import("node:fs/promises").FileHandle>)(
      file,
      ...rest,
    );
    if (String(file) === watched.file) {
      const read = handle.read.bind(handle);
      handle.read = (async (...a: unknown[]) => {
        const r = await (read as (...x: unknown[]) => Promise<{ bytesRead: number }>)(...a);
        watched.bytes += r.bytesRead;
        return r;
      }) as typeof handle.read;
    }
    return handle;
  }) as typeof fsp.open;
  return { ...fsp, default: { ...fsp, readFile, open }, readFile, open };
});

const { Toolplane } = await import("../../src/assemble/toolplane.js");
const { runDoctor } = await import("../../src/doctor/index.js");
const { tempProject } = await import("../helpers/tmp.js");

describe("a 10 MB SKILL.md", () => {
  it("is read only as far as its frontmatter: discovery, catalog, skills view and doctor", async () => {
    const p = tempProject();
    const file = path.join(p.repo, ".toolplane", "skills", "huge", "SKILL.md");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      `---\nname: huge\ndescription: A skill with a 10 MB body.\n---\n${"x".repeat(10 * 1024 * 1024)}\n`,
    );
    watched.file = file;
    const open = () => Toolplane.open({ cwd: p.repo, env: p.env, bundledSkills: null });
    const plane = await open();
    try {
      expect((await plane.skillsView()).skills.map((s) => s.name)).toEqual(["huge"]);
      expect(listingOf(await plane.catalog("anthropic"))).toContain("huge");
      const report = await runDoctor({ plane, reopen: () => open() });
      expect(report.checks.find((c) => c.check === "rename-leftover")?.ok).toBe(true);
    } finally {
      await plane.close();
    }
    expect(watched.bytes).toBeGreaterThan(0);
    expect(watched.bytes).toBeLessThanOrEqual(1024 * 1024);
  });
});
