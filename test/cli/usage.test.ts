// How the CLI treats a person: bad usage exits 2 with one line, -v, colour and terminal rules,
// serve's notice on a terminal, no internal words, and search's sort key shown.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/program.js";
import { CLI, ROOT, runCli } from "../helpers/cli.js";
import { HAS_SCRIPT, onTty, TTY_SKIP } from "../helpers/terminal.js";
import { tempProject } from "../helpers/tmp.js";

const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
const ESC = "\x1b[";

/** Exit 2, nothing on stdout, exactly one line on stderr in toolplane's form. */
function expectUsage(r: ReturnType<typeof runCli>, pattern: RegExp) {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr.endsWith("\n")).toBe(true);
  expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(r.stderr).toMatch(/^toolplane: /);
  expect(r.stderr).toMatch(pattern);
}

describe("bad usage: exit 2 and one line that says what to do", () => {
  const p = tempProject();
  const opts = { cwd: p.repo, env: p.bareEnv };

  it("a --cwd that does not exist (or is a file)", () => {
    expectUsage(
      runCli(["catalog", "--cwd", path.join(p.root, "nope")], opts),
      /--cwd .*nope: no such directory/,
    );
    expectUsage(runCli(["skills", "--cwd", CLI], opts), /--cwd .*main\.cjs: no such directory/);
  });

  it("--args that is not JSON is the person's mistake, not the model's", () => {
    expectUsage(
      runCli(["call", "read", "--args", "{path: x}"], opts),
      /--args is not JSON .*quote it for the shell/,
    );
  });

  it("commander's own errors come out in the same form", () => {
    expectUsage(runCli(["catalog", "--bogus"], opts), /unknown option '--bogus'; see --help/);
    expectUsage(runCli(["catalgo"], opts), /unknown command 'catalgo' \(did you mean catalog\?\)/);
    expectUsage(runCli(["call"], opts), /missing required argument 'tool'/);
    expectUsage(runCli(["catalog", "--provider"], opts), /argument missing/);
  });
});

describe("the shared options before or after the command", () => {
  it("--cwd, --set and --json may come first; --set from both places adds up", () => {
    const p = tempProject({
      ".toolplane/config.json": JSON.stringify({ catalog: { budget: { chars: 5000 } } }),
    });
    const elsewhere = tempProject();
    const opts = { cwd: elsewhere.repo, env: p.bareEnv };
    const first = runCli(["--cwd", p.repo, "--json", "catalog"], opts);
    expect(first.code, first.stderr).toBe(0);
    // the project's own file applied: --cwd reached the command
    expect(JSON.parse(first.stdout).budget.limit).toBe(5000);
    const both = runCli(
      [
        "--set",
        "catalog.budget.chars=700",
        "config",
        "--cwd",
        p.repo,
        "--set",
        "tools.timeoutMs=5000",
        "--json",
      ],
      opts,
    );
    expect(both.code, both.stderr).toBe(0);
    const values = JSON.parse(both.stdout).values;
    expect(values["catalog.budget.chars"]).toMatchObject({ value: 700, layer: "cli" });
    expect(values["tools.timeoutMs"]).toMatchObject({ value: 5000, layer: "cli" });
  });

  it("a shared option the command does not take is bad usage wherever it stands", () => {
    const p = tempProject();
    for (const args of [
      ["config", "--scope", "s1"],
      ["--scope", "s1", "config"],
    ]) {
      const r = runCli(args, { cwd: p.repo, env: p.bareEnv });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe("toolplane: toolplane config does not take --scope\n");
    }
  });
});

describe("-v and --version", () => {
  it("print the package's version", () => {
    for (const flag of ["-v", "--version"]) {
      const r = runCli([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${pkg.version}\n`);
    }
  });
});

describe("colour and terminals", () => {
  const p = tempProject();
  const doctor = (extra: NodeJS.ProcessEnv) =>
    runCli(["doctor", "--cwd", p.repo], { env: { ...p.bareEnv, ...extra } }).stdout;

  it("ok/FAIL are coloured with FORCE_COLOR, plain with NO_COLOR or through a pipe", () => {
    const forced = doctor({ FORCE_COLOR: "1" });
    expect(forced).toContain(`${ESC}32mok  ${ESC}39m`);
    expect(doctor({})).not.toContain(ESC);
    expect(doctor({ NO_COLOR: "1" })).not.toContain(ESC);
    expect(doctor({ FORCE_COLOR: "0" })).not.toContain(ESC);
  });

  it.skipIf(!HAS_SCRIPT)(
    `no progress escapes under TERM=dumb (a terminal draws them otherwise) [${TTY_SKIP}]`,
    () => {
      const drawn = onTty(["catalog", "--cwd", p.repo], { ...p.bareEnv, TERM: "xterm-256color" });
      expect(drawn).toContain("skills: scanning roots");
      expect(drawn).toContain(`\r${ESC}K`);
      const dumb = onTty(["catalog", "--cwd", p.repo], { ...p.bareEnv, TERM: "dumb" });
      expect(dumb).toContain("tools (");
      expect(dumb).not.toContain(ESC);
      const doctorDumb = onTty(["doctor", "--cwd", p.repo], { ...p.bareEnv, TERM: "dumb" });
      expect(doctorDumb).toContain("ok  ");
      expect(doctorDumb).not.toContain(ESC);
    },
  );

  it.skipIf(!HAS_SCRIPT)(
    `serve on a terminal says it speaks MCP on stdio; through pipes it does not [${TTY_SKIP}]`,
    async () => {
      const cmd = [process.execPath, CLI, "serve", "--cwd", p.repo].map((a) => `'${a}'`).join(" ");
      const child = spawn("script", ["-qfec", cmd, "/dev/null"], { env: { ...p.bareEnv, TERM: "dumb" } });
      let seen = "";
      const notice = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no notice; saw: ${seen}`)), 30_000);
        child.stdout.on("data", (d: Buffer) => {
          seen += d.toString();
          if (seen.includes("Ctrl-C")) {
            clearTimeout(timer);
            resolve(seen);
          }
        });
      });
      child.kill("SIGTERM");
      expect(notice).toContain("toolplane serve: speaking MCP (JSON-RPC) on stdin/stdout");
      // an MCP client pipes stdin: no notice (and stdout stays pure JSON-RPC); stdin closed, it ends
      const piped = runCli(["serve", "--cwd", p.repo], { env: p.bareEnv, input: "" });
      expect(piped.stderr).not.toContain("speaking MCP");
      expect(piped.stdout).toBe("");
    },
  );
});

describe("no internal words in help or output", () => {
  const p = tempProject();
  const INTERNAL = [/\bseed\b/i, /\bstations?\b/i, /\bSPEC\b/];

  /** Every command's full --help text (examples included), rendered in process as the CLI prints it. */
  function helpTexts(): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    const visit = (cmd: Command, label: string) => {
      let text = "";
      cmd.configureOutput({ writeOut: (s) => (text += s) });
      cmd.outputHelp();
      out.push([label, text]);
      for (const sub of cmd.commands) visit(sub, `${label} ${sub.name()}`.trim());
    };
    visit(buildProgram(), "");
    return out;
  }

  it("in every command's --help", () => {
    const texts = helpTexts();
    expect(texts.map(([label]) => label)).toEqual(
      expect.arrayContaining(["", "catalog", "doctor", "skills validate", "eval selection", "serve"]),
    );
    expect(texts.find(([label]) => label === "call")?.[1]).toContain("Examples:");
    for (const [label, text] of texts)
      for (const word of INTERNAL) expect(text, `${label || "toolplane"} --help: ${word}`).not.toMatch(word);
  });

  it("in config, doctor, catalog, layers and skills output", () => {
    const env = { ...p.bareEnv, NO_COLOR: "1" };
    for (const args of [["config"], ["doctor"], ["catalog"], ["layers"], ["skills"]]) {
      const r = runCli([...args, "--cwd", p.repo], { env });
      const all = r.stdout + r.stderr;
      for (const word of INTERNAL) expect(all, `${args.join(" ")}: ${word}`).not.toMatch(word);
    }
  });
});

describe("search shows the score it sorts by", () => {
  it("human output: a relevance column, falling down the list; JSON carries it too", () => {
    const p = tempProject();
    const opts = { cwd: p.repo, env: p.env };
    const r = runCli(["search", "look up the status of a ticket or file"], opts);
    expect(r.code).toBe(0);
    const [header, ...rows] = r.stdout.trimEnd().split("\n");
    expect(header).toMatch(/^\s*relevance\s+fit\s+tool\s+\(sorted by relevance/);
    const relevance = rows.map((l) => Number(l.trim().split(/\s+/)[0]));
    expect(relevance.length).toBeGreaterThan(1);
    for (let i = 1; i < relevance.length; i++) expect(relevance[i]!).toBeLessThanOrEqual(relevance[i - 1]!);
    const json = JSON.parse(
      runCli(["search", "look up the status of a ticket or file", "--json"], opts).stdout,
    );
    const rel = json.results.map((x: { relevance: number }) => x.relevance);
    expect(rel).toEqual([...rel].sort((a: number, b: number) => b - a));
    expect(json.results.map((x: { name: string }) => x.name)).toEqual(
      rows.map((l) => l.trim().split(/\s+/)[2]),
    );
  });
});
