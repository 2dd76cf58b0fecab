import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { builtinFileTools } from "../../../src/tools/index.js";
import { ROOT } from "../../helpers/cli.js";
import { testHost, textOf } from "../../helpers/host.js";
import { fileBytes, fileLines, followPages, type PageLimits, textFileArb } from "../../helpers/paging.js";
import { tempDir } from "../../helpers/tmp.js";

// read through the execution host, as a harness calls it: the page the model gets is the one the
// reader made, never cut again by the host's result limits

function hostFor(limits: PageLimits) {
  return testHost(builtinFileTools(), {
    workspace: tempDir("tp-readhost-"),
    config: { "results.inlineMaxBytes": limits.inlineMaxBytes, "results.lineMaxChars": limits.lineMaxChars },
  });
}

const readVia = (host: ReturnType<typeof hostFor>["host"], file: string) => async (offset: number) => {
  const [r] = await host.run([{ tool: "read", args: { path: file, offset } }]);
  return { text: textOf(r!), nextOffset: r!.nextOffset, isError: r!.isError };
};

describe("read through the host: following nextOffset shows every line exactly once", () => {
  it("property: random line lengths (0, over 2,000), CRLF, multi-byte, random limits", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        textFileArb,
        fc.integer({ min: 512, max: 60_000 }),
        fc.integer({ min: 120, max: 3000 }),
        async (f, inlineMaxBytes, lineMaxChars) => {
          const limits = { inlineMaxBytes, lineMaxChars };
          const { host, workspace } = hostFor(limits);
          const bytes = fileBytes(f);
          const name = `f${n++}.txt`;
          writeFileSync(path.join(workspace, name), bytes);
          await followPages(fileLines(bytes), limits, readVia(host, name));
        },
      ),
      { numRuns: 120 },
    );
  });

  it("a real file: typescript's lib.es5.d.ts and lib.dom.d.ts, page by page, default limits", async () => {
    const { host, workspace } = hostFor({ inlineMaxBytes: 51_200, lineMaxChars: 2000 });
    for (const lib of ["lib.es5.d.ts", "lib.dom.d.ts"]) {
      const bytes = readFileSync(path.join(ROOT, "node_modules", "typescript", "lib", lib));
      writeFileSync(path.join(workspace, lib), bytes);
      const pages = await followPages(
        fileLines(bytes),
        { inlineMaxBytes: 51_200, lineMaxChars: 2000 },
        readVia(host, lib),
      );
      expect(pages).toBeGreaterThan(1);
    }
  });

  it("a 100,000-character line is cut once, and its marker gives the true remainder", async () => {
    const { host, workspace } = hostFor({ inlineMaxBytes: 51_200, lineMaxChars: 2000 });
    writeFileSync(path.join(workspace, "wide.txt"), `${"q".repeat(100_000)}\nnext\n`);
    const r = await host.call({ tool: "read", args: { path: "wide.txt" } });
    const text = textOf(r);
    expect(text.match(/\[line cut:/g)).toHaveLength(1);
    const row = text.split("\n")[0]!;
    expect(row.length).toBeLessThanOrEqual(2000);
    const shown = /^1\t(q+) … \[line cut: (\d+) more bytes, 100000 in all\]$/.exec(row);
    expect(shown).not.toBeNull();
    expect(Number(shown![2])).toBe(100_000 - shown![1]!.length);
    expect(text).toContain("2\tnext");
    expect(r.truncated).toBe(true);
  });

  it("a folder page fits the limits with its numbers and footer", async () => {
    const { host, workspace } = hostFor({ inlineMaxBytes: 700, lineMaxChars: 2000 });
    for (let i = 0; i < 300; i++)
      writeFileSync(path.join(workspace, `entry-${String(i).padStart(3, "0")}`), "");
    let offset: number | undefined = 1;
    let seen = 0;
    while (offset !== undefined) {
      const r = await host.call({ tool: "read", args: { path: ".", offset } });
      const text = textOf(r);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(700);
      expect(text).not.toContain("[output cut");
      const rows = text.split("\n").filter((l) => /^\d+\t/.test(l));
      expect(Number(rows[0]!.split("\t")[0])).toBe(seen + 1);
      seen += rows.length;
      offset = r.nextOffset;
    }
    expect(seen).toBe(300);
  });
});
