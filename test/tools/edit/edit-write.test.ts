import { chmodSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CODING_ACTION_DEFAULTS } from "../../../src/assemble/policy.js";
import type { PermissionRule } from "../../../src/permissions/index.js";
import { editTool } from "../../../src/tools/edit/edit.js";
import { writeTool } from "../../../src/tools/edit/write.js";
import { readTool } from "../../../src/tools/read/tool.js";
import { testHost, textOf } from "../../helpers/host.js";
import { tempDir, writeTree } from "../../helpers/tmp.js";

function files(
  rules: PermissionRule[] = [{ effect: "allow", action: "write" }],
  tree: Record<string, string> = {},
) {
  const h = testHost([readTool(), editTool(), writeTool()], {
    rules,
    policy: { actionDefaults: CODING_ACTION_DEFAULTS },
  });
  writeTree(h.workspace, tree);
  const call = (tool: string, args: unknown) => h.host.call({ tool, args });
  const read = (p: string) => call("read", { path: p });
  const edit = (p: string, oldString: string, newString: string, replaceAll?: boolean) =>
    call("edit", { path: p, oldString, newString, ...(replaceAll === undefined ? {} : { replaceAll }) });
  const file = (p: string) => readFileSync(path.join(h.workspace, p), "utf8");
  return { ...h, call, read, edit, file };
}

describe("edit", () => {
  it("replaces a unique string after a read, and shows a unified diff", async () => {
    const f = files(undefined, { "a.ts": "const a = 1;\nconst b = 2;\nconst c = 3;\n" });
    await f.read("a.ts");
    const r = await f.edit("a.ts", "const b = 2;", "const b = 20;");
    expect(r.isError).toBe(false);
    expect(f.file("a.ts")).toBe("const a = 1;\nconst b = 20;\nconst c = 3;\n");
    expect(textOf(r)).toContain(
      "Edited a.ts: 1 replacement, +1 -1 lines.\n--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 20;",
    );
    // the model knows what it wrote: a second edit needs no new read
    expect((await f.edit("a.ts", "const c = 3;", "const c = 30;")).isError).toBe(false);
  });

  it("refuses a file not read in this session, and one changed on disk since it was read", async () => {
    const f = files(undefined, { "a.txt": "one\ntwo\n" });
    const unread = await f.edit("a.txt", "one", "1");
    expect(unread.error?.message).toContain("has not been read in this session: read it first");
    await f.read("a.txt");
    // same size, same mtime: only the hash can tell
    const st = statSync(path.join(f.workspace, "a.txt"));
    writeFileSync(path.join(f.workspace, "a.txt"), "ONE\ntwo\n");
    utimesSync(path.join(f.workspace, "a.txt"), st.atime, st.mtime);
    const changed = await f.edit("a.txt", "two", "2");
    expect(changed.error?.message).toContain("changed on disk since you last read it");
    expect(f.file("a.txt")).toBe("ONE\ntwo\n");
    await f.read("a.txt");
    expect((await f.edit("a.txt", "two", "2")).isError).toBe(false);
    // touched but unchanged is still the file that was read
    utimesSync(path.join(f.workspace, "a.txt"), new Date(), new Date(Date.now() + 5000));
    expect((await f.edit("a.txt", "2", "3")).isError).toBe(false);
  });

  it("no match and several matches are errors that say what to do", async () => {
    const f = files(undefined, { "a.py": "def f():\n    return 1\n\nx = 1\nx = 1\n" });
    await f.read("a.py");
    expect((await f.edit("a.py", "nope", "y")).error?.message).toMatch(
      /was not found in a\.py: it must match the file exactly\. Read the file again/,
    );
    expect((await f.edit("a.py", "def f():\n  return 1", "y")).error?.message).toMatch(
      /differs only in whitespace or indentation starts at line 1/,
    );
    expect((await f.edit("a.py", "1\tdef f():", "y")).error?.message).toMatch(/line number and a tab/);
    const many = await f.edit("a.py", "x = 1", "x = 2");
    expect(many.error?.message).toMatch(/occurs 2 times in a\.py \(at lines 4, 5\).*replaceAll/);
    expect(f.file("a.py")).toContain("x = 1\nx = 1\n");
    const all = await f.edit("a.py", "x = 1", "x = 2", true);
    expect(textOf(all)).toContain("2 replacements");
    expect(f.file("a.py")).toContain("x = 2\nx = 2\n");
    expect((await f.edit("a.py", "x = 2", "x = 2", true)).error?.message).toMatch(/the same/);
  });

  it("keeps CRLF line endings, a BOM and the file's mode", async () => {
    const f = files(undefined, { "w.txt": "\ufeffa\r\nb\r\nc\r\n" });
    chmodSync(path.join(f.workspace, "w.txt"), 0o751);
    await f.read("w.txt");
    const r = await f.edit("w.txt", "a\nb", "a\nB\nb");
    expect(r.isError).toBe(false);
    expect(readFileSync(path.join(f.workspace, "w.txt"))).toEqual(Buffer.from("\ufeffa\r\nB\r\nb\r\nc\r\n"));
    expect(statSync(path.join(f.workspace, "w.txt")).mode & 0o777).toBe(0o751);
  });

  it("path permissions apply: write asks by default, a path rule decides", async () => {
    const f = files([{ effect: "allow", action: "write", path: "src/**" }], {
      "src/a.txt": "x\n",
      "b.txt": "x\n",
    });
    await f.read("src/a.txt");
    await f.read("b.txt");
    expect((await f.edit("src/a.txt", "x", "y")).isError).toBe(false);
    const denied = await f.edit("b.txt", "x", "y");
    expect(denied.error?.code).toBe("permission_denied");
    expect(denied.error?.message).toContain("needs approval");
    const param = files(
      [
        { effect: "allow", action: "write" },
        { effect: "deny", tool: "edit", param: { pointer: "/newString", regex: "password" } },
      ],
      { "c.txt": "x\n" },
    );
    await param.read("c.txt");
    expect((await param.edit("c.txt", "x", "password=1")).error?.code).toBe("permission_denied");
  });

  it("never follows a symlink out of the workspace", async () => {
    const outside = tempDir("tp-out-");
    writeFileSync(path.join(outside, "t.txt"), "secret\n");
    const f = files([{ effect: "allow", action: "write" }]);
    symlinkSync(path.join(outside, "t.txt"), path.join(f.workspace, "link.txt"));
    const r = await f.call("write", { path: "link.txt", content: "pwned\n" });
    expect(r.error?.code).toBe("permission_denied");
    expect(readFileSync(path.join(outside, "t.txt"), "utf8")).toBe("secret\n");
  });
});

describe("write", () => {
  it("creates a file and its folders; replacing one needs a read first, then shows the diff", async () => {
    const f = files();
    const made = await f.call("write", { path: "new/dir/x.txt", content: "a\nb\n" });
    expect(textOf(made)).toBe("Created new/dir/x.txt (2 lines, 4 bytes).");
    expect(f.file("new/dir/x.txt")).toBe("a\nb\n");
    writeTree(f.workspace, { "y.txt": "old\n" });
    const refused = await f.call("write", { path: "y.txt", content: "new\n" });
    expect(refused.error?.message).toContain("has not been read in this session");
    await f.read("y.txt");
    const replaced = await f.call("write", { path: "y.txt", content: "new\n" });
    expect(textOf(replaced)).toContain("-old\n+new");
  });

  it("is atomic and keeps the mode: no temp file is left, the old inode is replaced whole", async () => {
    const f = files(undefined, { "run.sh": "#!/bin/sh\necho a\n" });
    chmodSync(path.join(f.workspace, "run.sh"), 0o755);
    const before = statSync(path.join(f.workspace, "run.sh")).ino;
    await f.read("run.sh");
    await f.call("write", { path: "run.sh", content: "#!/bin/sh\necho b\n" });
    const after = statSync(path.join(f.workspace, "run.sh"));
    expect(after.mode & 0o777).toBe(0o755);
    expect(after.ino).not.toBe(before);
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(f.workspace).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("a long diff is cut by the result limits, never dropped silently", async () => {
    const h = testHost([readTool(), writeTool()], {
      config: { "results.inlineMaxBytes": 2048, "results.previewBytes": 512 },
    });
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i}`).join("\n");
    writeTree(h.workspace, { "big.txt": `${lines}\n` });
    await h.host.call({ tool: "read", args: { path: "big.txt" } });
    const r = await h.host.call({
      tool: "write",
      args: { path: "big.txt", content: `${lines.toUpperCase()}\n` },
    });
    expect(r.truncated).toBe(true);
    expect(r.spillPath).toBeDefined();
    expect(readFileSync(r.spillPath!, "utf8")).toContain("+LINE 499");
  });
});
