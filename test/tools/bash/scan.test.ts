// The recursive-read scan (src/tools/bash/scan.ts) reads the ignore files a search would: a `!`
// line lets a hidden ask-first file into rg's search. Those files come from the repository.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reachBelow } from "../../../src/tools/bash/scan.js";
import { tempDir } from "../../helpers/tmp.js";

describe("the ignore files a search reads", () => {
  it("a .gitignore with a `!` line lets the hidden .env in: the scan names it", () => {
    const ws = tempDir("tp-scan-");
    writeFileSync(path.join(ws, ".env"), "TOKEN=x\n");
    expect(reachBelow(ws, { visible: true }, [".env"], ws)).toBeUndefined();
    writeFileSync(path.join(ws, ".gitignore"), "!.env\n");
    expect(reachBelow(ws, { visible: true }, [".env"], ws)).toMatch(/\.env/);
  });

  it("a FIFO named .gitignore is not opened for reading (it would block) and counts as letting in", () => {
    const ws = tempDir("tp-scan-");
    writeFileSync(path.join(ws, ".env"), "TOKEN=x\n");
    execFileSync("mkfifo", [path.join(ws, ".gitignore")]);
    // with no writer, a blocking open of the FIFO never returns: this call would hang the test
    expect(reachBelow(ws, { visible: true }, [".env"], ws)).toMatch(/\.env/);
  });
});
