import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { cosine } from "../../../src/defer/embed/embedder.js";
import { localEmbedder } from "../../../src/defer/embed/local.js";
import { CLI } from "../../helpers/cli.js";
import { tempProject } from "../../helpers/tmp.js";

// The real model (a dev dependency; an optional peer for users), in its worker thread.
describe("the local embedder (all-MiniLM-L6-v2)", () => {
  it("embeds in a worker: unit vectors of 384, closer for texts that mean the same", async () => {
    const e = localEmbedder();
    try {
      const [weather, rain, money] = await e.embed([
        "Gets the weather forecast for a city",
        "will it rain in Paris tomorrow?",
        "Converts an amount between two currencies",
      ]);
      expect(weather!.length).toBe(384);
      expect(cosine(weather!, weather!)).toBeCloseTo(1, 3);
      expect(cosine(weather!, rain!)).toBeGreaterThan(cosine(rain!, money!) + 0.1);
      // the main thread stays free while it works: a timer fires during an embed
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      await e.embed(Array.from({ length: 40 }, (_, i) => `tool number ${i} does a thing with files`));
      clearInterval(timer);
      expect(ticks).toBeGreaterThan(3);
    } finally {
      await e.close();
    }
  }, 120_000);

  it("through the built CLI: toolplane search ranks with it (the worker started from the bundled core)", async () => {
    const p = tempProject({ "a.txt": "x\n" });
    const env = { ...p.env, TOOLPLANE_CACHE_DIR: `${p.root}/cache` };
    const args = [CLI, "search", "change some text inside a file", "--json", "--cwd", p.repo];
    const out = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, [...args, "--set", 'search.embedder={"kind":"local"}'], { env });
      let text = "";
      child.stdout.on("data", (c) => {
        text += c;
      });
      child.on("close", () => resolve(text));
    });
    const answer = JSON.parse(out);
    expect(answer.ranking).toMatchObject({ kind: "hybrid" });
    expect(answer.results[0].name).toBe("edit");
  }, 120_000);
});
