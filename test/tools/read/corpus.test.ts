import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { peekIndex } from "../../../src/tools/read/index-cache.js";
import { readPath, renderRead } from "../../../src/tools/read/tool.js";
import { tempDir } from "../../helpers/tmp.js";

// A 1x1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

function setup(files: Record<string, string | Buffer> = {}) {
  const dir = tempDir("tp-read-");
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  const ctx = { cwd: dir, workspace: dir, config: {} };
  return {
    dir,
    ctx,
    read: (p: string, offset?: number, limit?: number) => readPath({ path: p, offset, limit }, ctx),
  };
}

const text = (v: Awaited<ReturnType<typeof readPath>>) => {
  const r = renderRead(v);
  return typeof r === "string" ? r : r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
};

describe("read: adversarial corpus", () => {
  it("an empty file is an empty page, not an error", async () => {
    const { read } = setup({ "empty.txt": "" });
    const v = await read("empty.txt");
    expect(v).toMatchObject({ kind: "file", lines: [], totalLines: 0 });
    expect(text(v)).toContain("(empty file)");
    await expect(read("empty.txt", 2)).rejects.toThrow(/has 0 lines/);
  });

  it("a file without a trailing newline keeps its last line and says so", async () => {
    const { read } = setup({ "a.txt": "one\ntwo" });
    const v = await read("a.txt");
    expect(v).toMatchObject({ lines: ["one", "two"], endsWithNewline: false, totalLines: 2 });
    expect(v).not.toHaveProperty("nextOffset");
    expect(text(v)).toContain("no newline at end");
  });

  it("CRLF lines read as normal lines, and the CRLFs are recorded", async () => {
    const { read } = setup({ "crlf.txt": "alpha\r\nbeta\r\ngamma\r\n" });
    const v = await read("crlf.txt");
    expect(v).toMatchObject({
      lines: ["alpha", "beta", "gamma"],
      crlfLines: [1, 2, 3],
      endsWithNewline: true,
    });
  });

  it("a single 5 MB line is cut with a visible marker", async () => {
    const { read } = setup({ "min.js": `${"x".repeat(5_000_000)}\n` });
    const v = await read("min.js");
    if (v.kind !== "file") throw new Error("expected a file page");
    expect(v.lines).toHaveLength(1);
    expect(v.cutLines).toEqual([1]);
    // cut once, so that the row as rendered ("1\t" + text + marker) fits the 2,000-character
    // line limit, and the marker gives the true remainder
    const shown = v.lines[0]!.replace(/ … \[line cut: .*$/, "");
    expect(shown).toMatch(/^x{1900,}$/);
    expect(v.lines[0]).toBe(`${shown} … [line cut: ${5_000_000 - shown.length} more bytes, 5000000 in all]`);
    expect(`1\t${v.lines[0]}`.length).toBeLessThanOrEqual(2000);
    expect(v).not.toHaveProperty("nextOffset");
    const r = renderRead(v);
    expect(typeof r !== "string" && r.truncated).toBe(true);
  });

  it("three 300 KB lines come back as three cut lines", async () => {
    const line = "é".repeat(150_000); // 300 KB of two-byte characters
    const { read } = setup({ "three.txt": `${line}\n${line}\n${line}\n` });
    const v = await read("three.txt");
    if (v.kind !== "file") throw new Error("expected a file page");
    expect(v.lines).toHaveLength(3);
    expect(v.cutLines).toEqual([1, 2, 3]);
    v.lines.forEach((l, i) => {
      const shown = l.replace(/ … \[line cut: .*$/, "");
      expect(shown).toMatch(/^é{1900,}$/);
      expect(l).toBe(`${shown} … [line cut: ${300_000 - shown.length * 2} more bytes, 300000 in all]`);
      expect(`${i + 1}\t${l}`.length).toBeLessThanOrEqual(2000);
    });
  });

  it("UTF-16 with a BOM decodes (LE and BE), CRLF included", async () => {
    const body = "héllo wörld\r\nzweite Zeile ✓\r\n";
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body, "utf16le")]);
    const be = Buffer.from(le);
    be.swap16();
    const { read } = setup({ "le.txt": le, "be.txt": be });
    for (const [name, encoding] of [
      ["le.txt", "utf-16le"],
      ["be.txt", "utf-16be"],
    ] as const) {
      const v = await read(name);
      expect(v).toMatchObject({ encoding, lines: ["héllo wörld", "zweite Zeile ✓"], crlfLines: [1, 2] });
    }
  });

  it("UTF-8 with a BOM drops the BOM", async () => {
    const { read } = setup({
      "bom.txt": Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("a\nb\n")]),
    });
    expect(await read("bom.txt")).toMatchObject({ encoding: "utf-8-bom", lines: ["a", "b"] });
  });

  it("a U+FEFF that starts a later line is text, kept (UTF-8, UTF-16LE, UTF-16BE)", async () => {
    const body = "a\n\uFEFFb\r\n\uFEFF\n";
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body, "utf16le")]);
    const be = Buffer.from(le).swap16();
    const { read } = setup({ "u8.txt": body, "le.txt": le, "be.txt": be });
    for (const name of ["u8.txt", "le.txt", "be.txt"]) {
      expect(await read(name)).toMatchObject({ lines: ["a", "\uFEFFb", "\uFEFF"], crlfLines: [2] });
    }
  });

  it("invalid UTF-8 bytes in a line become U+FFFD, as TextDecoder would make them", async () => {
    const bad = Buffer.from([0x61, 0xf0, 0x9f, 0x62, 0xed, 0xa0, 0x80, 0xc0, 0xaf, 0x0a]);
    // past the sniffed sample, which is valid: the file reads as UTF-8
    const valid = Buffer.from("ok é\n".repeat(100_000));
    const { read } = setup({ "bad.txt": Buffer.concat([valid, bad]) });
    const v = await read("bad.txt", 100_001, 1);
    expect(v).toMatchObject({ lines: [new TextDecoder().decode(bad.subarray(0, -1))] });
  });

  it("Latin-1 text reads as Latin-1, not as binary", async () => {
    const { read } = setup({ "latin.txt": Buffer.from("café crème\nnaïve façade\n", "latin1") });
    expect(await read("latin.txt")).toMatchObject({
      encoding: "latin1",
      lines: ["café crème", "naïve façade"],
    });
  });

  it("a PNG renamed .txt comes back as an image attachment", async () => {
    const { read } = setup({ "pic.txt": PNG });
    const v = await read("pic.txt");
    expect(v).toMatchObject({ kind: "media", mimeType: "image/png", bytes: PNG.length });
    const r = renderRead(v);
    if (typeof r === "string") throw new Error("expected blocks");
    expect(r.content[1]).toEqual({ type: "image", mimeType: "image/png", data: PNG.toString("base64") });
  });

  it("a PDF is a file attachment; media over 20 MiB is an error", async () => {
    const { dir, read } = setup({ "doc.pdf": "%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n", "big.png": PNG });
    const v = await read("doc.pdf");
    const r = renderRead(v);
    if (typeof r === "string") throw new Error("expected blocks");
    expect(r.content[1]).toMatchObject({ type: "file", mimeType: "application/pdf" });
    truncateSync(path.join(dir, "big.png"), 21 * 1024 * 1024); // sparse: no 21 MiB written
    await expect(read("big.png")).rejects.toThrow(/image\/png, 21 MiB: over the 20 MiB limit/);
  });

  it("a NUL in the middle of text makes it binary, and the error says why", async () => {
    const { read } = setup({ "nul.txt": "hello\nwor\0ld\n" });
    await expect(read("nul.txt")).rejects.toThrow(/binary file: binary data \(a NUL byte at offset 9\)/);
  });

  it("a known binary format is named", async () => {
    const gz = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03, 1, 2, 3, 4, 5, 6, 7, 8]);
    const { read } = setup({ "data.txt": gz });
    await expect(read("data.txt")).rejects.toThrow(/binary file: gz \(application\/gzip\)/);
  });

  it("a FIFO is refused without waiting for a writer", async () => {
    const { dir, read } = setup();
    const made = spawnSync("mkfifo", [path.join(dir, "pipe")]);
    expect(made.status).toBe(0);
    await expect(read("pipe")).rejects.toThrow(/is a FIFO \(named pipe\), not a regular file/);
  });

  it("/dev/zero is refused: a device, never read", async () => {
    const ctx = { cwd: "/", workspace: "/", config: {} };
    await expect(readPath({ path: "/dev/zero" }, ctx)).rejects.toThrow(/is a character device/);
    // and from an ordinary workspace it is simply outside
    const { read } = setup();
    await expect(read("/dev/zero")).rejects.toThrow(/outside the workspace/);
  });

  it("a symlink loop is a clear error", async () => {
    const { dir, read } = setup();
    symlinkSync("b", path.join(dir, "a"));
    symlinkSync("a", path.join(dir, "b"));
    await expect(read("a")).rejects.toThrow(/symlink loop/);
  });

  it("a directory of 10,000 entries pages like a file, sorted, folders with a slash", async () => {
    const { dir, read } = setup();
    const names: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const name = `f${String((i * 7919) % 10_000).padStart(5, "0")}`;
      if (i % 1000 === 0) {
        mkdirSync(path.join(dir, "big", name), { recursive: true });
        names.push(`${name}/`);
      } else {
        mkdirSync(path.join(dir, "big"), { recursive: true });
        writeFileSync(path.join(dir, "big", name), "");
        names.push(name);
      }
    }
    names.sort();
    const seen: string[] = [];
    let offset: number | undefined = 1;
    let pages = 0;
    while (offset !== undefined) {
      const v = await read("big", offset);
      if (v.kind !== "directory") throw new Error("expected a directory page");
      expect(v.totalEntries).toBe(10_000);
      seen.push(...v.entries);
      offset = v.nextOffset;
      pages++;
    }
    expect(pages).toBe(5);
    expect(seen).toEqual(names);
    await expect(read("big", 10_001)).rejects.toThrow(/has 10000 entries/);
  });

  it("a file appended to between two reads: the second read sees the new lines", async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`);
    const { dir, read } = setup({ "log.txt": `${lines.join("\n")}\n` });
    const first = await read("log.txt");
    expect(first).toMatchObject({ nextOffset: 2001 });
    await expect(read("log.txt", 3001)).rejects.toThrow(/has 3000 lines/);
    appendFileSync(path.join(dir, "log.txt"), "line 3001\nline 3002\n");
    const second = await read("log.txt", 2001);
    if (second.kind !== "file") throw new Error("expected a file page");
    expect(second.lines.at(-1)).toBe("line 3002");
    expect(second).toMatchObject({ totalLines: 3002 });
    expect(await read("log.txt", 3001)).toMatchObject({ lines: ["line 3001", "line 3002"] });
  });

  it("a path outside the workspace is refused, however it is spelt", async () => {
    const { dir, read } = setup({ "in.txt": "x\n" });
    writeFileSync(path.join(path.dirname(dir), `${path.basename(dir)}-outside.txt`), "secret\n");
    symlinkSync(
      path.join(path.dirname(dir), `${path.basename(dir)}-outside.txt`),
      path.join(dir, "link.txt"),
    );
    await expect(read(`../${path.basename(dir)}-outside.txt`)).rejects.toThrow(/outside the workspace/);
    await expect(read("link.txt")).rejects.toThrow(/outside the workspace/);
    await expect(read("/etc/hostname")).rejects.toThrow(/outside the workspace/);
    await expect(read("sub/../../x")).rejects.toThrow(/outside the workspace/);
  });

  it("a missing file says so", async () => {
    const { read } = setup();
    await expect(read("nope.txt")).rejects.toThrow(/nope.txt does not exist/);
  });
});

describe("read: a file without read permission", () => {
  const root = process.getuid?.() === 0;
  const dist = path.resolve(fileURLToPath(import.meta.url), "../../../../dist/src/tools/read/tool.js");

  it.skipIf(root)("is a clear error", async () => {
    const { dir, read } = setup({ "secret.txt": "s\n" });
    chmodSync(path.join(dir, "secret.txt"), 0o000);
    await expect(read("secret.txt")).rejects.toThrow(/secret.txt cannot be read: permission denied/);
  });

  // root reads any file, so chmod alone proves nothing: run the built tool as an unprivileged user
  it.skipIf(!root || !existsSync(dist))(
    "is a clear error (as root: checked in a child running as nobody)",
    () => {
      const { dir } = setup({ "secret.txt": "s\n", "open.txt": "o\n" });
      chmodSync(dir, 0o755);
      chmodSync(path.join(dir, "secret.txt"), 0o000);
      chmodSync(path.join(dir, "open.txt"), 0o644);
      const script = `
      const { readPath } = await import(${JSON.stringify(dist)});
      const ctx = { cwd: ${JSON.stringify(dir)}, workspace: ${JSON.stringify(dir)}, config: {} };
      const ok = await readPath({ path: "open.txt" }, ctx);
      let err = "";
      try { await readPath({ path: "secret.txt" }, ctx); } catch (e) { err = e.message; }
      console.log(JSON.stringify({ ok: ok.lines, err }));`;
      const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
        uid: 65534,
        gid: 65534,
        encoding: "utf8",
      });
      expect(r.stderr).toBe("");
      expect(JSON.parse(r.stdout)).toEqual({
        ok: ["o"],
        err: "secret.txt cannot be read: permission denied",
      });
    },
  );
});

describe("read: paging", () => {
  it("cuts at 2,000 lines and gives nextOffset only when cut", async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => `${i + 1}`);
    const { read } = setup({ "n.txt": `${lines.join("\n")}\n` });
    const a = await read("n.txt");
    expect(a).toMatchObject({ nextOffset: 2001 });
    if (a.kind !== "file") throw new Error("expected a file page");
    expect(a.lines).toHaveLength(2000);
    expect(text(a)).toContain("read again with offset=2001");
    const b = await read("n.txt", 2001);
    expect(b).not.toHaveProperty("nextOffset");
    expect(b).toMatchObject({ totalLines: 2500 });
    expect(await read("n.txt", 10, 3)).toMatchObject({ lines: ["10", "11", "12"], nextOffset: 13 });
    await expect(read("n.txt", 2501)).rejects.toThrow(
      /offset 2501 is past the end of n.txt: it has 2500 lines/,
    );
  });

  it("cuts at 50 KiB before 2,000 lines when lines are long", async () => {
    const line = "y".repeat(99);
    const { read } = setup({ "w.txt": `${`${line}\n`.repeat(1000)}` });
    const v = await read("w.txt");
    if (v.kind !== "file") throw new Error("expected a file page");
    // the page as rendered fits 50 KiB: rows with their "N\t" prefixes, and room kept for the
    // footer (137 bytes here): 9 rows of 102 bytes, 90 of 103 and 393 of 104
    expect(v.lines).toHaveLength(492);
    expect(v.nextOffset).toBe(493);
    expect(Buffer.byteLength(text(v))).toBeLessThanOrEqual(51_200);
  });

  it("a page near the start of a big file scans none of it; a deep page scans only to it", async () => {
    const { dir, read } = setup();
    const file = path.join(dir, "big.txt");
    const line = `${"z".repeat(63)}\n`;
    writeFileSync(file, line.repeat(200_000)); // 12.8 MB
    await read("big.txt", 1, 10);
    expect(peekIndex(file)?.scannedBytes).toBe(0);
    const v = await read("big.txt", 50_001, 2);
    expect(v).toMatchObject({ lines: ["z".repeat(63), "z".repeat(63)], nextOffset: 50_003 });
    const scanned = peekIndex(file)?.scannedBytes ?? 0;
    expect(scanned).toBeGreaterThanOrEqual(50_000 * 64);
    expect(scanned).toBeLessThan(50_000 * 64 + 2 * 1024 * 1024);
    expect(readFileSync(file).length).toBe(12_800_000);
  });
});

describe("read: abort", () => {
  it("an aborted deep read stops, and what it scanned is kept for the next read", async () => {
    const { dir, ctx } = setup();
    const file = path.join(dir, "long.txt");
    writeFileSync(file, `${"q".repeat(31)}\n`.repeat(200_000)); // 6.4 MB: several scan blocks
    const controller = new AbortController();
    controller.abort();
    await expect(
      readPath({ path: "long.txt", offset: 190_000 }, { ...ctx, signal: controller.signal }),
    ).rejects.toThrow(/abort/i);
    const partial = peekIndex(file)?.scannedBytes ?? 0;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(6_400_000);
    expect(await readPath({ path: "long.txt", offset: 190_000, limit: 1 }, ctx)).toMatchObject({
      lines: ["q".repeat(31)],
    });
  });
});
