import { utimesSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { generateText, stepCountIs } from "ai";
import { afterAll, describe, expect, it } from "vitest";
import { aiSdkTools } from "../../../src/adapters/ai-sdk.js";
import { Toolplane } from "../../../src/assemble/index.js";
import { CLI, runJson } from "../../helpers/cli.js";
import { resultText } from "../../helpers/paging.js";
import { scriptedModel } from "../../helpers/scripted-model.js";
import { tempProject } from "../../helpers/tmp.js";

// grep's modes and glob's order, paged the way a user's harness reaches them: `toolplane call`,
// `toolplane serve` driven by the MCP SDK client, and the AI SDK adapter driven by a model that
// follows the offset each page ends with. A denied file and an unapproved .env stay out of every
// page.

const FILES = {
  "src/a.ts": "// hit a1\nconst x = 1;\n// hit a3\n// hit a4\n",
  "src/b.ts": "x\n// hit b2\n",
  "lib/c.js": "// hit c1\n",
  "notes.md": "nothing\n",
  ".env": "hit=from-env\n",
  "secrets/k": "hit key material\n",
};
const DENY = 'permissions.rules=[{"effect":"deny","path":"secrets/**"}]';
/** Every matching line, by path then line: what paging must show, each once. */
const ALL_LINES = ["lib/c.js:1", "src/a.ts:1", "src/a.ts:3", "src/a.ts:4", "src/b.ts:2"];
/** Newest first, as the times below make them. */
const NEWEST_FIRST = ["src/b.ts", "lib/c.js", "notes.md", "src/a.ts"];

function project() {
  const p = tempProject(FILES);
  const times: Record<string, number> = { "src/a.ts": 1, "notes.md": 2, "lib/c.js": 3, "src/b.ts": 4 };
  for (const [name, t] of Object.entries(times)) {
    utimesSync(path.join(p.repo, name), 1_700_000_000 + t, 1_700_000_000 + t);
  }
  return p;
}

/** The `path:line` of each match row of a content page (`N: text` under its path). */
function matchRows(text: string): string[] {
  const out: string[] = [];
  for (const group of text.split("\n\n(")[0]!.split("\n\n")) {
    const [header, ...rows] = group.split("\n");
    for (const row of rows) {
      const m = /^(\d+): /.exec(row);
      if (m) out.push(`${header}:${m[1]}`);
    }
  }
  return out;
}
const offsetIn = (text: string) => {
  const m = /offset=(\d+)\)$/m.exec(text);
  return m ? Number(m[1]) : undefined;
};
const leaks = /key material|from-env|secrets\/|\.env/;

describe("toolplane call: grep modes and glob pages", () => {
  const p = project();
  const call = (tool: string, args: object) =>
    runJson(["call", tool, "--args", JSON.stringify(args), "--set", DENY], { cwd: p.repo, env: p.env });

  it("content: following nextOffset pages through every match once, context beside each", () => {
    const seen: string[] = [];
    let offset: number | undefined = 0;
    let pages = 0;
    while (offset !== undefined) {
      const out = call("grep", { pattern: "hit", output_mode: "content", "-B": 1, head_limit: 2, offset });
      const text = out.content[0].text as string;
      expect(out.isError).toBe(false);
      expect(text).not.toMatch(leaks);
      expect(offsetIn(text)).toBe(out.nextOffset);
      seen.push(...matchRows(text));
      offset = out.nextOffset;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(ALL_LINES);
  });

  it("files_with_matches by default and count: the same files, with the withheld line", () => {
    const files = call("grep", { pattern: "hit" });
    expect(files.content[0].text).toBe(
      "lib/c.js\nsrc/a.ts\nsrc/b.ts\n\n(3 files with matches)\n" +
        "(2 files withheld by permissions: 1 denied, 1 needing approval that was not given)",
    );
    const count = call("grep", { pattern: "hit", output_mode: "count", head_limit: 2 });
    expect(count.nextOffset).toBe(2);
    expect(count.content[0].text).toMatch(
      /^lib\/c\.js: 1\nsrc\/a\.ts: 3\n\n\(files 1-2 of 3, 5 matching lines in all, by path; more follow: call grep again with the same arguments and offset=2\)/,
    );
  });

  it("glob: newest first, paged", () => {
    const first = call("glob", { pattern: "*", head_limit: 3 });
    expect(first.nextOffset).toBe(3);
    const rest = call("glob", { pattern: "*", head_limit: 3, offset: 3 });
    expect(rest).not.toHaveProperty("nextOffset");
    const listed = [first, rest].flatMap((r) =>
      (r.content[0].text as string).split("\n").filter((l) => !l.startsWith("(")),
    );
    expect(listed).toEqual(NEWEST_FIRST);
  });
});

describe("toolplane serve, driven by the MCP SDK client", () => {
  const p = project();
  let client: Client;
  afterAll(() => client?.close());

  it("grep content pages and glob pages, by the offsets the text gives", async () => {
    client = new Client({ name: "grep-user-path", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "serve", "--cwd", p.repo, "--set", DENY],
        env: p.env as Record<string, string>,
        stderr: "pipe",
      }),
    );
    const call = async (name: string, args: Record<string, unknown>) =>
      resultText(await client.callTool({ name, arguments: args }));
    const seen: string[] = [];
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const text = await call("grep", { pattern: "hit", output_mode: "content", head_limit: 3, offset });
      expect(text).not.toMatch(leaks);
      seen.push(...matchRows(text));
      offset = offsetIn(text);
    }
    expect(seen).toEqual(ALL_LINES);
    const listed: string[] = [];
    offset = 0;
    while (offset !== undefined) {
      const text = await call("glob", { pattern: "*", head_limit: 1, offset });
      listed.push(...text.split("\n").filter((l) => !l.startsWith("(")));
      offset = offsetIn(text);
    }
    expect(listed).toEqual(NEWEST_FIRST);
  });
});

describe("the AI SDK adapter, driven by a model", () => {
  it("the model follows the offsets grep shows it and sees every match once", async () => {
    const p = project();
    const plane = await Toolplane.open({ cwd: p.repo, env: p.env, set: [DENY], bundledSkills: null });
    try {
      const seen: string[] = [];
      const args = { pattern: "hit", output_mode: "content", "-C": 1, head_limit: 2 };
      const model = scriptedModel((out, step) => {
        const text = out === undefined ? undefined : String(out.value);
        if (text !== undefined) {
          expect(out?.type).toBe("text");
          expect(text).not.toMatch(leaks);
          seen.push(...matchRows(text));
        }
        if (step === 0) return { tool: "grep", input: args };
        const offset = offsetIn(text ?? "");
        return offset === undefined ? undefined : { tool: "grep", input: { ...args, offset } };
      });
      await generateText({
        model,
        tools: await aiSdkTools(plane),
        prompt: "find hit",
        stopWhen: stepCountIs(20),
      });
      expect(seen).toEqual(ALL_LINES);
    } finally {
      await plane.close();
    }
  });
});
