import { expect, it, vi } from "vitest";

// a platform with no prebuilt binary, or an install without the optional dependency
vi.mock("../../../src/tools/bash/parser-native.js", () => ({
  nativeBashParser: vi.fn(async () => {
    throw new Error("Cannot find module 'tree-sitter'");
  }),
}));

const { bashParser } = await import("../../../src/tools/bash/parser.js");
const { nativeBashParser } = await import("../../../src/tools/bash/parser-native.js");

it("takes the wasm runtime where the native binding does not load", async () => {
  await expect(bashParser("native")).rejects.toThrow("tree-sitter");
  const parser = await bashParser("auto");
  expect(parser.engine).toBe("wasm");
  expect(parser.parse("git status && ls").root.children[0]!.type).toBe("list");
  // the failed native load is not kept: asked again, it is tried again
  const calls = vi.mocked(nativeBashParser).mock.calls.length;
  await expect(bashParser("native")).rejects.toThrow();
  expect(vi.mocked(nativeBashParser).mock.calls.length).toBe(calls + 1);
});
