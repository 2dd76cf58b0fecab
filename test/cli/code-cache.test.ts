import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/cli.js";
import { tempDir, tempProject } from "../helpers/tmp.js";

// The loader as built (tsc's file of it); each run is a new process, as each CLI run is.
const LOADER = path.join(ROOT, "dist", "src", "cli", "code-cache.js");

const DRIVER = `import { createRequire } from "node:module";
import { requireWithCodeCache } from ${JSON.stringify(LOADER)};
const [file, cachePath] = process.argv.slice(2);
const loaded = requireWithCodeCache(file, cachePath ? { path: cachePath, replaces: (n) => n.startsWith("old-") } : undefined);
const out = {
  cache: loaded.cache,
  value: loaded.exports.value(20),
  imported: await loaded.exports.load(),
  shared: createRequire(import.meta.url)(file) === loaded.exports,
};
loaded.save();
console.log(JSON.stringify(out));
`;

// A CommonJS module like the core: a function that runs (so the cache holds compiled code) and an
// import() through the loader's parameter, which code compiled from a cache cannot do itself.
const MODULE = `exports.value = (n) => { let s = 0; for (let i = 0; i < n; i++) s += i; return s; };
exports.load = async () => (await __toolplaneImport("node:os")).platform();
`;

function setup() {
  const dir = tempDir("tp-code-cache-");
  writeFileSync(path.join(dir, "driver.mjs"), DRIVER);
  writeFileSync(path.join(dir, "mod.cjs"), MODULE);
  return { dir, file: path.join(dir, "mod.cjs"), cache: path.join(dir, "cache", "mod.v8") };
}

function load(dir: string, file: string, cache?: string) {
  const r = spawnSync(process.execPath, [path.join(dir, "driver.mjs"), file, ...(cache ? [cache] : [])], {
    encoding: "utf8",
  });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as { cache: string; value: number; imported: string; shared: boolean };
}

describe("requireWithCodeCache", () => {
  it("makes the cache on the first run and compiles from it on the next, import() included", () => {
    const { dir, file, cache } = setup();
    const expected = { value: 190, imported: process.platform, shared: true };
    expect(load(dir, file, cache)).toEqual({ cache: "none", ...expected });
    expect(statSync(cache).size).toBeGreaterThan(0);
    const written = statSync(cache).mtimeMs;
    expect(load(dir, file, cache)).toEqual({ cache: "used", ...expected });
    // a cache V8 used is not written again
    expect(statSync(cache).mtimeMs).toBe(written);
    expect(load(dir, file)).toEqual({ cache: "off", ...expected });
  });

  it("a damaged cache is refused, the module still loads, and the cache is made again", () => {
    const { dir, file, cache } = setup();
    mkdirSync(path.dirname(cache), { recursive: true });
    writeFileSync(cache, Buffer.alloc(4096, 7));
    expect(load(dir, file, cache).cache).toBe("refused");
    expect(load(dir, file, cache).cache).toBe("used");
  });

  it("removes the files the cache replaces and leaves the others", () => {
    const { dir, file, cache } = setup();
    mkdirSync(path.dirname(cache), { recursive: true });
    writeFileSync(path.join(path.dirname(cache), "old-build.v8"), "x");
    writeFileSync(path.join(path.dirname(cache), "other-node.v8"), "x");
    load(dir, file, cache);
    expect(readdirSync(path.dirname(cache)).sort()).toEqual(["mod.v8", "other-node.v8"]);
  });

  it("a cache others may write, in a folder others may write, or behind a link is not read (it is code)", () => {
    const { dir, file, cache } = setup();
    load(dir, file, cache);
    chmodSync(cache, 0o646);
    expect(load(dir, file, cache).cache).toBe("none");
    // made again, the user's alone
    expect(statSync(cache).mode & 0o777).toBe(0o600);
    expect(load(dir, file, cache).cache).toBe("used");
    const elsewhere = path.join(dir, "elsewhere.v8");
    renameSync(cache, elsewhere);
    symlinkSync(elsewhere, cache);
    expect(load(dir, file, cache).cache).toBe("none");
    rmSync(cache);
    renameSync(elsewhere, cache);
    chmodSync(path.dirname(cache), 0o777);
    const before = statSync(cache).mtimeMs;
    expect(load(dir, file, cache).cache).toBe("none");
    expect(statSync(cache).mtimeMs).toBe(before);
    chmodSync(path.dirname(cache), 0o700);
    expect(load(dir, file, cache).cache).toBe("used");
  });

  it("a cache that cannot be written is left out without an error", () => {
    const { dir, file } = setup();
    writeFileSync(path.join(dir, "a-file"), "");
    const cache = path.join(dir, "a-file", "cache", "mod.v8");
    expect(load(dir, file, cache).cache).toBe("none");
    expect(load(dir, file, cache).cache).toBe("none");
  });
});

describe("the CLI with its code cache", () => {
  function cacheFiles(home: string) {
    const dir = path.join(home, ".cache", "toolplane", "code");
    if (!existsSync(dir)) return [];
    return readdirSync(dir).map((name) => ({ name, mtime: statSync(path.join(dir, name)).mtimeMs }));
  }

  it("a catalog from the cache is the catalog without one, byte for byte", () => {
    const { repo, home, env } = tempProject({ "notes.txt": "hi\n" });
    const first = runCli(["catalog", "--json", "--cwd", repo], { env });
    expect(first.code).toBe(0);
    expect(cacheFiles(home).map((f) => f.name)).toEqual([expect.stringMatching(/-catalog\.v8$/)]);
    const cached = runCli(["catalog", "--json", "--cwd", repo], { env });
    const uncached = runCli(["catalog", "--json", "--cwd", repo], {
      env: { ...env, TOOLPLANE_CACHE_DIR: "" },
    });
    expect(cached.stdout).toBe(first.stdout);
    expect(uncached.stdout).toBe(first.stdout);
  });

  // a command substitution: the simple path leaves it to the parser, an import() in the core
  const line = '{"command":"echo \\"$(pwd)\\""}';
  const bashIn = (repo: string, env: NodeJS.ProcessEnv) => {
    const r = runCli(["call", "bash", "--cwd", repo, "--args", line, "--yes"], { env });
    expect(r.stderr).not.toMatch(/import|could not/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${repo}\\n[\\s\\S]*\\[exit code 0\\]`, "m"));
  };

  it("bash through the native parser makes and uses a cache as any call does (no V8 flag changes)", () => {
    const { repo, home, env } = tempProject({ "notes.txt": "one\ntwo\n" });
    bashIn(repo, env);
    const [made] = cacheFiles(home);
    expect(made?.name).toMatch(/-call\.v8$/);
    bashIn(repo, env);
    const read = runCli(["call", "read", "--cwd", repo, "--args", '{"path":"notes.txt"}'], { env });
    expect(read.code).toBe(0);
    expect(cacheFiles(home)).toEqual([made]);
  });

  it("bash runs from a cache another call made; a wasm parser's run (V8 flags changed) makes none", () => {
    const project = tempProject({ "notes.txt": "one\ntwo\n" });
    const { repo, home } = project;
    const env = { ...project.env, TOOLPLANE_BASH_PARSER: "wasm" };
    const bash = () => bashIn(repo, env);
    // V8 would refuse a cache made under --liftoff-only in every later run, which would make it again
    bash();
    bash();
    expect(cacheFiles(home)).toEqual([]);
    const read = runCli(["call", "read", "--cwd", repo, "--args", '{"path":"notes.txt"}'], { env });
    expect(read.code).toBe(0);
    const [made] = cacheFiles(home);
    expect(made?.name).toMatch(/-call\.v8$/);
    bash();
    expect(cacheFiles(home)).toEqual([made]);
    const again = runCli(["call", "read", "--cwd", repo, "--args", '{"path":"notes.txt"}'], { env });
    expect(again.stdout).toBe(read.stdout);
    expect(cacheFiles(home)).toEqual([made]);
  });
});

describe("stack traces through the loader", () => {
  it("name the module's own lines and columns", () => {
    const { dir, file, cache } = setup();
    // on the first line, where a wrapper on the same line would move the column
    writeFileSync(file, `exports.where = () => new Error("x").stack;\nexports.load = async () => "";\n`);
    writeFileSync(
      path.join(dir, "trace.mjs"),
      `import { requireWithCodeCache } from ${JSON.stringify(LOADER)};\nconsole.log(requireWithCodeCache(process.argv[2], { path: process.argv[3], replaces: () => false }).exports.where());\n`,
    );
    const r = spawnSync(process.execPath, [path.join(dir, "trace.mjs"), file, cache], { encoding: "utf8" });
    expect(r.stdout).toContain(`${file}:1:23)`);
  });
});
