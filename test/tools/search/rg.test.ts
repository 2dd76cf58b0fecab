import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RgStartError, runRg } from "../../../src/tools/search/rg.js";
import { tempDir } from "../../helpers/tmp.js";

// A failed start must never escape as an 'error' event or a rejected promise nobody awaits: either
// would end the process (vitest reports them as unhandled errors, failing this file).

describe("runRg: a failed start is a value, never an unhandled error", () => {
  it("a missing working folder: lines() throws RgStartError, done resolves with it", async () => {
    const gone = path.join(tempDir("tp-rg-"), "gone");
    const run = runRg(["--files"], gone, 1e6);
    await expect(
      (async () => {
        for await (const _ of run.lines()) void _;
      })(),
    ).rejects.toBeInstanceOf(RgStartError);
    const done = await run.done;
    expect(done.code).toBeNull();
    expect(done.error?.errno.code).toBe("ENOENT");
  });

  it("a working folder that is a file (spawn throws at once): the same", async () => {
    const dir = tempDir("tp-rg-");
    writeFileSync(path.join(dir, "f"), "x");
    const run = runRg(["--files"], path.join(dir, "f"), 1e6);
    await expect(run.lines().next()).rejects.toBeInstanceOf(RgStartError);
    expect((await run.done).error).toBeInstanceOf(RgStartError);
  });

  it("a caller that only awaits done, never reading lines: no unhandled rejection", async () => {
    const run = runRg(["--files"], path.join(tempDir("tp-rg-"), "gone"), 1e6);
    expect((await run.done).error).toBeInstanceOf(RgStartError);
    // and one that starts but is stopped before reading
    const dir = tempDir("tp-rg-");
    mkdirSync(path.join(dir, "a"));
    const stopped = runRg(["--files"], dir, 1e6);
    stopped.stop();
    await stopped.done;
  });

  it("an already aborted signal stops rg at once", async () => {
    const controller = new AbortController();
    controller.abort();
    const run = runRg(["--files", "/"], tempDir("tp-rg-"), 1e9, controller.signal);
    const lines: Buffer[] = [];
    for await (const line of run.lines()) lines.push(line);
    expect((await run.done).code).toBeNull();
    expect(lines.length).toBeLessThan(1000);
  });
});
