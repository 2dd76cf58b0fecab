// Every command the README shows, run as shown, with its output's shape checked against what the
// README's table says and the CLI contract's JSON fields. A new README row without a case here
// fails, so the README cannot show a command nobody runs.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fakeChatServer } from "./eval/fake-chat-server.js";
import { CLI, ROOT, runCli } from "./helpers/cli.js";
import { tempProject, writeTree } from "./helpers/tmp.js";
import { startServeHttp } from "./mcp/serve-process.js";

const README = readFileSync(path.join(ROOT, "README.md"), "utf8");

/** The first cells of the README's CLI table, as written (`\|` unescaped). */
function tableSynopses(): string[] {
  const start = README.indexOf("| command | does |");
  const rows = README.slice(start).split("\n\n")[0]!.split("\n").slice(2);
  return rows.map((row) => /^\| `((?:[^`\\]|\\.)*)` \|/.exec(row)![1]!.replace(/\\\|/g, "|"));
}

/** Inline `toolplane ...` commands outside the table that are literal (no `[--opt]` or NAME to fill). */
function literalCommands(): string[] {
  const table = new Set(tableSynopses());
  const found = [...README.matchAll(/`(toolplane [^`]+)`/g)].map((m) => m[1]!);
  return [...new Set(found)].filter((c) => !table.has(c) && !/ \[-|\b[A-Z]{2,}\b|\.\.\.|…/.test(c));
}

const SKILL = "---\nname: release-notes\ndescription: Write release notes from the git log.\n---\nSteps.\n";

function project() {
  const p = tempProject(
    { "notes.txt": "alpha\n", ".agents/skills/release-notes/SKILL.md": SKILL },
    { trust: false },
  );
  // a real repository: the README's bash example runs git status
  execFileSync("git", ["init", "-q", p.repo]);
  const env = { ...p.env, TOOLPLANE_HOME: path.join(p.home, ".toolplane") };
  const run = (args: string[]) => runCli(args, { cwd: p.repo, env });
  const json = (args: string[]) => {
    const r = run([...args, "--json"]);
    expect(r.code, `toolplane ${args.join(" ")}: ${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout);
  };
  return { ...p, env, run, json };
}

const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  for (const c of cleanups) await c();
});

/** Starts a long-running command and resolves with its first stdout line. */
function firstLine(args: string[], p: ReturnType<typeof project>): Promise<string> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: p.repo, env: p.env });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    child.once("exit", (code) => reject(new Error(`toolplane ${args.join(" ")} exited ${code}`)));
  });
}

const PROVIDERS = ["anthropic", "openai-chat", "openai-responses", "gemini", "mcp"];

/** One runner per README row: it runs the row's command in each form the row names. */
const CASES: Record<string, () => Promise<void> | void> = {
  "toolplane catalog [--provider P] [--scope S]": () => {
    const p = project();
    for (const provider of PROVIDERS) {
      const out = p.json(["catalog", "--provider", provider, "--scope", "session-1>agent:reviewer"]);
      expect(out).toMatchObject({ provider, incomplete: false, problems: [] });
      const names = out.tools.map(
        (t: { name?: string; function?: { name: string } }) => t.name ?? t.function?.name,
      );
      expect(names).toContain("read");
      expect(typeof out.system).toBe("string");
      expect(Array.isArray(out.deferred)).toBe(true);
      expect(Object.keys(out.budget)).toEqual(expect.arrayContaining(["limit", "used", "unit", "truncated"]));
      expect(out.prefixHash).toMatch(/^[0-9a-f]{64}$/);
    }
  },
  "toolplane doctor [--scope S]": () => {
    const p = project();
    const r = p.run(["doctor", "--scope", "session-1", "--json"]);
    expect([0, 1]).toContain(r.code);
    const out = JSON.parse(r.stdout);
    expect(out.checks.length).toBeGreaterThan(5);
    for (const c of out.checks) {
      expect(Object.keys(c)).toEqual(expect.arrayContaining(["station", "check", "ok", "detail"]));
      // "with the detail and a fix": every failed check says how to fix it
      if (!c.ok) expect(c.fix).toEqual(expect.any(String));
    }
    expect(r.code).toBe(out.checks.every((c: { ok: boolean }) => c.ok) ? 0 : 1);
  },
  "toolplane layers [--scope S]": () => {
    const out = project().json(["layers", "--scope", "session-1"]);
    expect(out.chain).toEqual(["session-1"]);
    const global = out.layers.find((l: { name: string }) => l.name === "global");
    expect(global.entries).toContainEqual({ name: "read", provider: "builtin", shadowed: false });
  },
  "toolplane skills": () => {
    const out = project().json(["skills"]);
    expect(out.skills).toHaveLength(1);
    expect(out.skills[0]).toMatchObject({ name: "release-notes", modelVisible: true, userVisible: true });
    for (const k of ["rank", "form", "path", "root"]) expect(out.skills[0]).toHaveProperty(k);
    expect(out).toHaveProperty("shadowed");
    expect(out).toHaveProperty("problems");
  },
  "toolplane skills --watch --json": async () => {
    const p = project();
    const line = await firstLine(["skills", "--watch", "--json"], p);
    expect(JSON.parse(line).skills.map((s: { name: string }) => s.name)).toEqual(["release-notes"]);
  },
  "toolplane skills validate PATH...": () => {
    const p = project();
    const good = path.join(p.repo, ".agents/skills/release-notes");
    const bad = writeTree(path.join(p.root, "bad"), { "SKILL.md": "---\nname: Bad Name\n---\n" });
    const ok = p.run(["skills", "validate", good, "--json"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual([{ path: expect.any(String), valid: true, errors: [] }]);
    const r = p.run(["skills", "validate", good, bad, "--json"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).map((v: { valid: boolean }) => v.valid)).toEqual([true, false]);
  },
  "toolplane search QUERY [--limit N] [--tools FILE]": () => {
    const p = project();
    const out = p.json(["search", "find files by name", "--limit", "3"]);
    expect(out.query).toBe("find files by name");
    expect(out.results.length).toBeLessThanOrEqual(3);
    for (const r of out.results) {
      // "the relevance they are sorted by and the 0-1 fit"
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
      expect(typeof r.relevance).toBe("number");
    }
    const rel = out.results.map((r: { relevance: number }) => r.relevance);
    expect(rel).toEqual([...rel].sort((a, b) => b - a));
    const tools = path.join(p.root, "tools.json");
    writeFileSync(
      tools,
      JSON.stringify([
        { name: "weather", description: "Current weather for a city", parameters: { type: "object" } },
        { name: "stocks", description: "Share prices", parameters: { type: "object" } },
      ]),
    );
    expect(p.json(["search", "weather in Lisbon", "--tools", tools]).results[0].name).toBe("weather");
    // the batch form the row names
    const queries = path.join(p.root, "queries.jsonl");
    writeFileSync(queries, `${JSON.stringify({ id: "q1", query: "share price" })}\n`);
    const batch = p.run(["search", "--tools", tools, "--queries", queries, "--json"]);
    expect(batch.code, batch.stderr).toBe(0);
    const lines = batch.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { id: "q1", results: expect.arrayContaining([expect.objectContaining({ name: "stocks" })]) },
    ]);
  },
  "toolplane call TOOL [--args JSON] [--yes] [--session ID]": () => {
    const p = project();
    const read = p.json(["call", "read", "--args", '{"path": "notes.txt"}', "--session", "s1"]);
    expect(read).toMatchObject({ tool: "read", isError: false, truncated: false });
    const edit = p.json([
      "call",
      "edit",
      "--yes",
      "--session",
      "s1",
      "--args",
      '{"path": "notes.txt", "oldString": "alpha", "newString": "beta"}',
    ]);
    expect(edit.isError).toBe(false);
    expect(readFileSync(path.join(p.repo, "notes.txt"), "utf8")).toBe("beta\n");
  },
  "toolplane config": () => {
    const out = project().json(["config"]);
    expect(out.values["tools.timeoutMs"]).toMatchObject({
      value: 120000,
      layer: "default",
      kind: "run-time",
    });
    expect(out.values["defer.threshold"].kind).toBe("assembly");
  },
  "toolplane trust [DIR] [--revoke]": () => {
    const p = project();
    expect(p.json(["trust", p.repo])).toMatchObject({ project: p.repo, trusted: true });
    expect(p.json(["trust", p.repo, "--revoke"])).toMatchObject({ project: p.repo, trusted: false });
  },
  "toolplane serve [--http PORT [--token T | --no-auth] [--endpoint NAME=SCOPE]...] [--yes]": async () => {
    const p = project();
    const serve = await startServeHttp(p.repo, p.env, {
      args: ["--token", "t0ken-for-the-readme-test", "--endpoint", "reviewer=session-1>agent:reviewer"],
    });
    cleanups.push(serve.stop);
    const list = (auth?: string, url = serve.url) =>
      fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(auth ? { authorization: auth } : {}),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "t", version: "1" },
          },
        }),
      });
    expect((await list()).status).toBe(401);
    expect((await list("Bearer t0ken-for-the-readme-test")).status).toBe(200);
    expect((await list("Bearer t0ken-for-the-readme-test", `${serve.url}/reviewer`)).status).toBe(200);
  },
  "toolplane inspect [--port P] [--scope S]": async () => {
    const p = project();
    const line = await firstLine(["inspect", "--port", "0", "--scope", "session-1", "--json"], p);
    const { url } = JSON.parse(line);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[^/]+\/$/);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);
  },
  "toolplane eval selection [--endpoint URL --model M]": async () => {
    const p = project();
    const local = p.run(["eval", "selection", "--set", "tools.examples=true", "--json"]);
    expect(local.code, local.stderr).toBe(0);
    expect(JSON.parse(local.stdout)).toMatchObject({ ok: true });
    const server = await fakeChatServer(() => ["ticket_status"]);
    cleanups.push(server.close);
    const r = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const args = ["eval", "selection", "--endpoint", server.url, "--model", "m", "--json"];
      const child = spawn(process.execPath, [CLI, ...args], { cwd: p.repo, env: p.env });
      let stdout = "";
      child.stdout.on("data", (c: Buffer) => {
        stdout += c.toString();
      });
      child.on("close", (code) => resolve({ code, stdout }));
    });
    // this fake calls ticket_status whatever it is asked: the not-select case fails, exit 1
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, model: "m" });
    expect(server.seen.length).toBeGreaterThan(0);
  },
};

describe("the README's commands", () => {
  it("every row of the CLI table has a case here, and every case a row", () => {
    expect(tableSynopses().sort()).toEqual(Object.keys(CASES).sort());
  });

  for (const [synopsis, run] of Object.entries(CASES)) it(synopsis, run, 60_000);

  it("each literal command in the text runs as written (no usage error)", () => {
    const commands = literalCommands();
    // the bash example, doctor, config, trust: whatever the README shows without placeholders
    expect(commands).toEqual(expect.arrayContaining(["toolplane doctor", "toolplane trust"]));
    expect(commands.some((c) => c.startsWith("toolplane call bash"))).toBe(true);
    const p = project();
    for (const command of commands) {
      if (/^toolplane (serve|inspect)$/.test(command)) continue; // long-running: the table's cases run them
      const r = spawnShell(command, p);
      expect([0, 1], `${command}: ${r.stderr}`).toContain(r.code);
      expect(r.stderr).not.toMatch(/^toolplane: (unknown|error: unknown)/m);
    }
  });
});

function spawnShell(command: string, p: ReturnType<typeof project>) {
  const line = command.replace(/^toolplane /, `'${process.execPath}' '${CLI}' `);
  try {
    const stdout = execFileSync("sh", ["-c", line], {
      cwd: p.repo,
      env: p.env,
      encoding: "utf8",
      stdio: "pipe",
    });
    return { code: 0, stdout, stderr: "" };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, stdout: e.stdout, stderr: e.stderr };
  }
}
