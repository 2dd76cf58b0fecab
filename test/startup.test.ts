import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CLI, ROOT } from "./helpers/cli.js";
import { tempDir, tempProject, writeTree } from "./helpers/tmp.js";

/**
 * What loads at start-up. A child process runs with a guard that makes the named packages
 * unresolvable (as if they were not installed), for ESM imports (a module.register resolve hook)
 * and for require/createRequire alike: if importing toolplane, or a CLI command, loads one of them,
 * it fails. The same guard around a call that needs the package shows that it does catch a load.
 */
const guardDir = tempDir("tp-guard-");
writeTree(guardDir, {
  "hooks.mjs": `
let blocked = [];
export function initialize(data) { blocked = data.blocked; }
const hit = (s) => blocked.some((b) => s === b || s.startsWith(b + "/"));
export async function resolve(specifier, context, next) {
  if (hit(specifier)) {
    const error = new Error("Cannot find package '" + specifier + "' (blocked by the start-up test)");
    error.code = "ERR_MODULE_NOT_FOUND";
    throw error;
  }
  return next(specifier, context);
}
`,
  "guard.mjs": `
import Module, { register } from "node:module";
const blocked = JSON.parse(process.env.TP_BLOCKED ?? "[]");
register("./hooks.mjs", import.meta.url, { data: { blocked } });
const hit = (s) => blocked.some((b) => s === b || s.startsWith(b + "/"));
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (hit(request)) {
    const error = new Error("Cannot find module '" + request + "' (blocked by the start-up test)");
    error.code = "MODULE_NOT_FOUND";
    throw error;
  }
  return resolveFilename.call(this, request, ...rest);
};
`,
});
const GUARD = pathToFileURL(path.join(guardDir, "guard.mjs")).href;

/** Packages no start-up may load: each is loaded by the one feature that needs it. */
const HEAVY = [
  "@vscode/ripgrep",
  "@modelcontextprotocol/sdk",
  "gpt-tokenizer",
  "web-tree-sitter",
  "tree-sitter",
  "tree-sitter-bash",
  "ajv",
  "yaml",
  "chokidar",
  "diff",
  "picomatch",
];

function guarded(blocked: string[], args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const r = spawnSync(process.execPath, ["--import", GUARD, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...(opts.env ?? process.env), TP_BLOCKED: JSON.stringify(blocked) },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A script run as an ES module in the child, importing the built package. */
function script(body: string): string[] {
  const file = path.join(tempDir("tp-script-"), "run.mjs");
  const index = pathToFileURL(path.join(ROOT, "dist", "src", "index.js")).href;
  writeFileSync(file, `const toolplane = await import(${JSON.stringify(index)});\n${body}\n`);
  return [file];
}

describe("importing toolplane", () => {
  it("loads no zod, ripgrep, MCP SDK, tokenizer, bash parser, ajv, yaml, chokidar, diff or picomatch", () => {
    const r = guarded([...HEAVY, "zod"], script(`process.stdout.write(typeof toolplane.Toolplane.open);`));
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("function");
  });

  it("a bash line's check expands globs itself: picomatch is not needed", () => {
    const p = tempProject({ "a.txt": "hello\n" });
    const body = `
const plane = await toolplane.Toolplane.open({ cwd: ${JSON.stringify(p.repo)}, set: ["tools.sandbox=off"], bundledSkills: null });
const out = {};
for (const command of ["cat a.txt | wc -l", "cat *.txt"]) {
  const r = await plane.call("bash", { command }, { ask: () => true });
  out[command] = r.isError ? "error: " + JSON.stringify(r.error ?? r.content) : r.content.map((c) => c.text).join("");
}
await plane.close();
process.stdout.write(JSON.stringify(out));
`;
    const r = guarded(["picomatch"], script(body), { env: p.bareEnv });
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout) as Record<string, string>;
    expect(out["cat a.txt | wc -l"]).toMatch(/^1\n/);
    // bash's own pathname expansion (tools/bash/glob.ts) replaced picomatch's regex
    expect(out["cat *.txt"]).toMatch(/^hello\n/);
  });

  it("works without ripgrep's package, and a search then says ripgrep is missing", () => {
    const p = tempProject({ "a.txt": "hello\n" });
    const body = `
const plane = await toolplane.Toolplane.open({ cwd: ${JSON.stringify(p.repo)}, bundledSkills: null });
const read = await plane.call("read", { path: "a.txt" });
const grep = await plane.call("grep", { pattern: "hello" });
await plane.close();
process.stdout.write(JSON.stringify({ read: read.isError, grep: grep.isError, text: grep.content[0].text }));
`;
    const r = guarded(["@vscode/ripgrep"], script(body), { env: p.bareEnv });
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout) as { read: boolean; grep: boolean; text: string };
    expect(out.read).toBe(false);
    // the guard does catch a load: the search needed the package and got the clear error
    expect(out.grep).toBe(true);
    expect(out.text).toMatch(/ripgrep is missing.*blocked by the start-up test.*reinstall @vscode\/ripgrep/);
  });
});

describe("the CLI loads what the command uses", () => {
  const p = tempProject({ "a.txt": "hello\n" });

  it("--version loads neither the parser nor any command (commander and zod blocked)", () => {
    for (const flag of ["--version", "-v"]) {
      const r = guarded([...HEAVY, "commander", "zod"], [CLI, flag]);
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe("0.1.0\n");
    }
  });

  it("--help lists every command, and each command's help its options and examples, without zod", () => {
    const r = guarded([...HEAVY, "zod"], [CLI, "--help"]);
    expect(r.code).toBe(0);
    const commands = [
      "catalog",
      "layers",
      "search",
      "serve",
      "skills",
      "call",
      "config",
      "eval",
      "doctor",
      "trust",
      "inspect",
    ];
    for (const c of commands) expect(r.stdout).toMatch(new RegExp(`^  ${c}\\b`, "m"));
    const leaves = commands.filter((c) => c !== "eval").concat(["eval selection", "skills validate"]);
    for (const c of leaves) {
      const h = guarded([...HEAVY, "zod"], [CLI, ...c.split(" "), "--help"]);
      expect(h.code, `${c} --help: ${h.stderr}`).toBe(0);
      expect(h.stdout).toMatch(/Options:/);
      expect(h.stdout).toMatch(/--cwd <dir>/);
      expect(h.stdout).toMatch(/Examples:\n {2}\$ toolplane /);
    }
  });

  it("catalog and call read in a project without skills or MCP servers load none of them, nor zod", () => {
    const catalog = guarded([...HEAVY, "zod"], [CLI, "catalog", "--json"], { cwd: p.repo, env: p.bareEnv });
    expect(catalog.stderr).toBe("");
    expect(catalog.code).toBe(0);
    expect(JSON.parse(catalog.stdout).tools.map((t: { name: string }) => t.name)).toContain("read");
    const read = guarded([...HEAVY, "zod"], [CLI, "call", "read", "--args", '{"path": "a.txt"}'], {
      cwd: p.repo,
      env: p.bareEnv,
    });
    // only the line naming what runs (the tool's display part): no error from a blocked package
    expect(read.stderr).toBe("Read: read a.txt\n");
    expect(read.code).toBe(0);
    expect(read.stdout).toContain("hello");
    // the arguments are checked by the validator compiled at build time: neither zod nor ajv loads
    const bad = guarded([...HEAVY, "zod"], [CLI, "call", "read", "--args", '{"path": "", "limit": 0}'], {
      cwd: p.repo,
      env: p.bareEnv,
    });
    expect(bad.stderr).not.toMatch(/blocked by the start-up test/);
    expect(bad.stdout + bad.stderr).toMatch(/\/path: must NOT have fewer than 1 characters/);
    expect(bad.stdout + bad.stderr).toMatch(/\/limit: expected >= 1/);
  });

  it("a plain configured value is checked without zod; a refused one, or a key with objects, loads it", () => {
    const plain = guarded([...HEAVY, "zod"], [CLI, "catalog", "--set", "catalog.budget.chars=9000"], {
      cwd: p.repo,
      env: p.bareEnv,
    });
    expect(plain.stderr).toBe("");
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("9000");
    // the error is zod's wording, so a refused value loads it
    const refused = guarded([...HEAVY, "zod"], [CLI, "catalog", "--set", "catalog.budget.chars=-1"], {
      cwd: p.repo,
      env: p.bareEnv,
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/zod.*blocked by the start-up test/);
    const rules = guarded([...HEAVY, "zod"], [CLI, "catalog", "--set", "permissions.rules=[]"], {
      cwd: p.repo,
      env: p.bareEnv,
    });
    expect(rules.code).not.toBe(0);
    expect(rules.stderr).toMatch(/zod.*blocked by the start-up test/);
  });

  it("a command that needs a package still loads it: catalog with a token budget needs the tokenizer", () => {
    const r = guarded(HEAVY, [CLI, "catalog", "--set", "catalog.budget.tokens=5000"], {
      cwd: p.repo,
      env: p.bareEnv,
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/gpt-tokenizer.*blocked by the start-up test/);
  });
});
