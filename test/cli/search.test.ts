import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runJson } from "../helpers/cli.js";
import { tempDir, tempProject } from "../helpers/tmp.js";

const DOMAINS = [
  "weather",
  "invoice",
  "calendar",
  "ticket",
  "email",
  "storage",
  "payment",
  "translate",
  "map",
  "music",
];
const VERBS = ["get", "create", "delete", "list", "update"];

/** 2,000 distinct tools: domain x verb x shard, each with a description and parameters. */
function catalog(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const domain = DOMAINS[i % DOMAINS.length]!;
    const verb = VERBS[Math.floor(i / DOMAINS.length) % VERBS.length]!;
    const shard = Math.floor(i / (DOMAINS.length * VERBS.length));
    return {
      name: `${domain}_${verb}_${shard}`,
      description: `${verb} a ${domain} record in region ${shard}.`,
      parameters: {
        type: "object",
        properties: { region: { type: "string", description: `region code, e.g. r${shard}` } },
      },
    };
  });
}

describe("toolplane search", () => {
  it("batch mode: JSON Lines of {id, results} over a 2,000-tool catalog", () => {
    const dir = tempDir();
    const tools = path.join(dir, "tools.json");
    const queries = path.join(dir, "queries.jsonl");
    writeFileSync(tools, JSON.stringify(catalog(2000)));
    writeFileSync(
      queries,
      `${[
        { id: "q1", query: "delete the invoice record" },
        { id: 2, query: "what's the weather like" },
        { id: "q3", query: "zzzz qqqq" },
      ]
        .map((q) => JSON.stringify(q))
        .join("\n")}\n`,
    );
    const r = runCli(["search", "--tools", tools, "--queries", queries, "--limit", "3"]);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual(["q1", 2, "q3"]);
    expect(lines[0].results).toHaveLength(3);
    expect(lines[0].results[0].name).toMatch(/^invoice_delete_/);
    expect(Object.keys(lines[0].results[0]).sort()).toEqual(["name", "relevance", "score"]);
    expect(lines[1].results[0].name).toMatch(/^weather_/);
    expect(lines[2].results).toEqual([]);
  });

  it("single query over a file and over this directory's catalog", () => {
    const dir = tempDir();
    const tools = path.join(dir, "tools.json");
    writeFileSync(tools, JSON.stringify(catalog(100)));
    const out = runJson(["search", "pay the music invoice", "--tools", tools, "--limit", "2"]);
    expect(out.query).toBe("pay the music invoice");
    expect(out.results).toHaveLength(2);
    const project = tempProject();
    const own = runJson(["search", "status of support ticket T-1001", "--cwd", project.repo], {
      env: project.env,
    });
    expect(own.results[0].name).toBe("ticket_status");
  });

  it("bad usage exits 2 with one clear line", () => {
    const dir = tempDir();
    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, "{");
    for (const [args, msg] of [
      [["search"], /give a QUERY/],
      [["search", "x", "--limit", "0"], /--limit/],
      [["search", "x", "--tools", bad], /not valid JSON/],
      [["search", "x", "--tools", path.join(dir, "missing.json")], /cannot read --tools/],
      [["search", "--queries", bad], /needs --tools/],
    ] as const) {
      const r = runCli([...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
