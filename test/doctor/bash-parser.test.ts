import { beforeEach, describe, expect, it, vi } from "vitest";

// each test decides which runtime loads: a platform with no binary, an install without the
// optional dependency, or both gone
const fail = { native: false, wasm: false };
vi.mock("../../src/tools/bash/parser-native.js", () => ({
  nativeBashParser: vi.fn(async () => {
    if (fail.native) throw new Error("Cannot find module 'tree-sitter'\nRequire stack: ...");
    return { engine: "native", parse: () => ({}) };
  }),
}));
vi.mock("../../src/tools/bash/parser-wasm.js", () => ({
  wasmBashParser: vi.fn(async () => {
    if (fail.wasm) throw new Error("Cannot find module 'web-tree-sitter'");
    return { engine: "wasm", parse: () => ({}) };
  }),
}));

// a fresh module each time: a process keeps the parser it loaded
async function bashParserCheck(env: NodeJS.ProcessEnv) {
  vi.resetModules();
  return (await import("../../src/doctor/bash-parser.js")).bashParserCheck(env);
}

describe("doctor: the bash parser row", () => {
  beforeEach(() => {
    fail.native = false;
    fail.wasm = false;
  });

  it("names the native binding where it loads", async () => {
    const row = await bashParserCheck({});
    expect(row).toMatchObject({ station: "tools", check: "bash-parser", ok: true });
    expect(row.detail).toContain("native binding (tree-sitter)");
  });

  it("says the wasm runtime runs, and why, where the native binding does not load", async () => {
    fail.native = true;
    const row = await bashParserCheck({});
    expect(row.ok).toBe(true);
    expect(row.detail).toContain("web-tree-sitter (wasm)");
    // the reason's first line only, not the require stack
    expect(row.detail).toContain("(Cannot find module 'tree-sitter')");
    expect(row.detail).not.toContain("Require stack");
    expect(row.detail).toContain("npm rebuild tree-sitter");
  });

  it("fails when neither loads, with both reasons", async () => {
    fail.native = true;
    fail.wasm = true;
    const row = await bashParserCheck({});
    expect(row.ok).toBe(false);
    expect(row.findings).toEqual([
      "native: Cannot find module 'tree-sitter'",
      "wasm: Cannot find module 'web-tree-sitter'",
    ]);
    expect(row.fix).toContain("npm ci");
  });

  it("follows TOOLPLANE_BASH_PARSER, and fails when the runtime it asks for does not load", async () => {
    expect((await bashParserCheck({ TOOLPLANE_BASH_PARSER: "wasm" })).detail).toContain(
      "web-tree-sitter (wasm), as TOOLPLANE_BASH_PARSER=wasm asks",
    );
    fail.native = true;
    const asked = await bashParserCheck({ TOOLPLANE_BASH_PARSER: "native" });
    expect(asked.ok).toBe(false);
    expect(asked.fix).toContain("unset TOOLPLANE_BASH_PARSER");
  });

  it("fails on a value of TOOLPLANE_BASH_PARSER the parser ignores", async () => {
    const row = await bashParserCheck({ TOOLPLANE_BASH_PARSER: "wsam" });
    expect(row.ok).toBe(false);
    expect(row.findings).toEqual([
      "TOOLPLANE_BASH_PARSER=wsam is neither native nor wasm (nor auto), so it is ignored",
    ]);
    expect(row.detail).toContain("native binding (tree-sitter)");
    expect((await bashParserCheck({ TOOLPLANE_BASH_PARSER: "auto" })).ok).toBe(true);
  });
});
