// The package as a user gets it: `npm pack`, installed into a project from the local npm cache (no
// network; the run's shared consumer, test/helpers/packed.ts), then imported, typechecked by a
// strict consumer, and run through its bin.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bashParser } from "../../src/tools/bash/parser.js";
import { ROOT } from "../helpers/cli.js";
import { NPX, npmEnv, repoPackage, sh } from "../helpers/pack.js";
import { packedConsumer, packedTarball, workspace } from "../helpers/packed.js";
import { tempProject } from "../helpers/tmp.js";

const pkg = repoPackage;
/** Whether the native bash parser loads in this repository's own install (else the wasm one runs). */
const nativeHere = await bashParser("native").then(
  () => true,
  () => false,
);

/** The first ```ts block after the README's "## Library" heading. */
function readmeLibraryExample(): string {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const at = readme.indexOf("\n## Library\n");
  expect(at, "README has a ## Library section").toBeGreaterThan(0);
  const m = /```ts\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!m) throw new Error("README's Library section has no ```ts block");
  return m[1]!;
}

const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    // the AI SDK's declarations use fetch's DOM types (HeadersInit, ...), as its docs say
    lib: ["ES2023", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noImplicitOverride: true,
    noPropertyAccessFromIndexSignature: true,
    // Third-party declarations (ai, @openai/agents) do not compile under exactOptionalPropertyTypes,
    // so they are skipped as most projects do; toolplane's own are checked for what they import
    // in "ships built code" below.
    skipLibCheck: true,
    types: ["node"],
    outDir: "out",
    rootDir: "src",
  },
  include: ["src"],
};

// Public exports only: the root and the two adapter subpaths; a deep path must not resolve.
const CONSUMER_MAIN = `import { createRequire } from "node:module";
import { sep } from "node:path";
import { type Catalog, type ToolResult, Toolplane } from "toolplane";
import { aiSdkTools } from "toolplane/ai-sdk";
import { openaiAgentsTools } from "toolplane/openai-agents";
import { main } from "./weather.js";

const cwd = process.argv[2];
if (!cwd) throw new Error("usage: main.js DIR");
const { catalog, result }: { catalog: Catalog; result: ToolResult | undefined } = await main(cwd, process.env);

const plane = await Toolplane.open({ cwd, env: process.env, set: ["tools.examples=true"] });
const ai = Object.keys(await aiSdkTools(plane)).sort();
const agents = (await openaiAgentsTools(plane)).map((t) => t.name).sort();
const grep = await plane.call("grep", { pattern: "needle" });
// a line only the parser reads (a command substitution): the native binding loads, as installed
const bash = await plane.call("bash", { command: 'echo "$(pwd)"' });
// a hook whose matcher is a regular expression: RE2JS loads from the install
const hooked = await plane
  .host({ hooks: { PreToolUse: [{ matcher: "^Gre?p$", hook: () => ({ hookSpecificOutput: { additionalContext: "hooked" } }) }] } })
  .call({ tool: "grep", args: { pattern: "needle" } });
const nativeParser = Object.keys(createRequire(import.meta.url).cache).some((f) =>
  f.endsWith(["", "node_modules", "tree-sitter", "index.js"].join(sep)),
);
await plane.close();

let deep = "resolved";
try {
  // @ts-expect-error: only the package's exports are its interface
  await import("toolplane/dist/src/index.js");
} catch (error) {
  deep = (error as { code?: string }).code ?? "failed";
}
console.log(JSON.stringify({
  tools: catalog.tools.length,
  prefixHash: catalog.prefixHash,
  result,
  ai,
  agents,
  grep: grep.content,
  bash: bash.isError ? bash.error?.code : "ran",
  hook: hooked.content.some((c) => c.type === "text" && c.text.includes("adds: hooked]")),
  nativeParser,
  deep,
}));
`;

describe("the package as installed from npm pack", () => {
  /** The shared consumer (ai, @openai/agents, zod, @types/node among its dependencies). */
  let consumer: string;
  /** This file's folder in it: the strict consumer's tsconfig and sources, the tool module's repo. */
  let own: string;
  let project: ReturnType<typeof tempProject>;
  let files: string[];

  beforeAll(async () => {
    files = (await packedTarball()).files;
    consumer = await packedConsumer();
    own = workspace(consumer, "pack");
    mkdirSync(path.join(own, "src"));
    writeFileSync(path.join(own, "tsconfig.json"), JSON.stringify(CONSUMER_TSCONFIG, null, 2));
    writeFileSync(path.join(own, "src", "weather.ts"), readmeLibraryExample());
    writeFileSync(path.join(own, "src", "main.ts"), CONSUMER_MAIN);
    project = tempProject({ "notes.txt": "a needle in a haystack\n" });
  }, 600_000);

  it("ships built code, docs and the licence, and nothing it does not need", () => {
    for (const f of [
      "package.json",
      "README.md",
      "LICENSE",
      "dist/src/index.js",
      "dist/src/index.d.ts",
      "dist/src/cli/main.cjs",
      "dist/src/adapters/ai-sdk.js",
      "dist/src/adapters/openai-agents.js",
      "dist/src/adapters/langchain.js",
      "dist/src/adapters/claude-agent-sdk.js",
      "dist/src/examples/ticket-status/index.d.ts",
      // the inspector's page, built by tsconfig.page.json
      "dist/src/inspect/page/main.js",
    ])
      expect(files).toContain(f);
    // the JavaScript is the bundle (scripts/bundle.mjs): one core and the entries that load it, not
    // tsc's file-per-module output, which would be a second copy nothing imports
    const js = files.filter((f) => f.startsWith("dist/src/") && /\.c?js$/.test(f));
    expect(js.filter((f) => f.startsWith("dist/src/chunks/"))).toEqual([
      expect.stringMatching(/^dist\/src\/chunks\/core-[A-Z0-9]+\.cjs$/),
    ]);
    expect(
      js.filter((f) => !f.startsWith("dist/src/chunks/") && !f.startsWith("dist/src/inspect/page/")).sort(),
    ).toEqual([
      "dist/src/adapters/ai-sdk.js",
      "dist/src/adapters/claude-agent-sdk.js",
      "dist/src/adapters/langchain.js",
      "dist/src/adapters/openai-agents.js",
      "dist/src/cli/main.cjs",
      "dist/src/index.js",
    ]);
    expect(files.filter((f) => /^(dist\/(test|bench|examples)|src|test|bench)\//.test(f))).toEqual([]);
    // a source map is shipped only with its sources (inside it, or beside it in the tarball)
    for (const map of files.filter((f) => f.endsWith(".map"))) {
      const parsed = JSON.parse(readFileSync(path.join(consumer, "node_modules", "toolplane", map), "utf8"));
      const sources = (parsed.sources as string[]).map((s) => path.posix.join(path.posix.dirname(map), s));
      const inline = Array.isArray(parsed.sourcesContent) && parsed.sourcesContent.every(Boolean);
      expect(inline || sources.every((s) => files.includes(s)), `${map} without its sources`).toBe(true);
    }
  });

  it("its code and declarations import only shipped files, dependencies, peers and node builtins", () => {
    const allowed = new Set([
      ...Object.keys(pkg.dependencies),
      ...Object.keys(pkg.optionalDependencies ?? {}),
      ...Object.keys(pkg.peerDependencies ?? {}),
    ]);
    const bad: string[] = [];
    let checked = 0;
    for (const file of files.filter((f) => /\.c?js$/.test(f) || f.endsWith(".d.ts"))) {
      // the core's lines are broken at ~120 characters (scripts/bundle.mjs), long strings with a
      // line continuation (a backslash and a newline, which the string does not hold): joined
      const text = readFileSync(path.join(consumer, "node_modules", "toolplane", file), "utf8").replace(
        /\\\n/g,
        "",
      );
      // ES imports, and in the CommonJS core require() and importModule() (util/import-module.ts)
      const specifiers =
        /^\s*(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']|\b(?:import|require|importModule)\(\s*["']([^"']+)["']\s*\)/gm;
      for (const m of text.matchAll(specifiers)) {
        const spec = (m[1] ?? m[2] ?? m[3])!;
        checked++;
        if (spec.startsWith(".")) {
          const target = path.posix.join(path.posix.dirname(file), spec);
          const wanted = file.endsWith(".d.ts") ? target.replace(/\.js$/, ".d.ts") : target;
          if (!files.includes(wanted)) bad.push(`${file}: ${spec}`);
        } else if (!spec.startsWith("node:")) {
          const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
          if (!allowed.has(name)) bad.push(`${file}: ${spec}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
    expect(bad).toEqual([]);
  });

  it("declares the metadata a registry page shows", () => {
    const installed = JSON.parse(
      readFileSync(path.join(consumer, "node_modules", "toolplane", "package.json"), "utf8"),
    );
    expect(installed.license).toBe("MIT");
    expect(readFileSync(path.join(consumer, "node_modules", "toolplane", "LICENSE"), "utf8")).toMatch(
      /^MIT License/,
    );
    for (const field of ["repository", "homepage", "bugs", "keywords", "files"])
      expect(installed[field], field).toBeTruthy();
  });

  it("a strict consumer using public exports only (and the README's example) typechecks and runs", () => {
    const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
    const check = spawnSync(process.execPath, [tsc, "-p", own], { encoding: "utf8" });
    expect(check.stdout + check.stderr, "tsc errors").toBe("");
    expect(check.status).toBe(0);
    const out = execFileSync(process.execPath, [path.join(own, "out", "main.js"), project.repo], {
      cwd: own,
      env: { ...project.env, TOOLPLANE_HOME: path.join(project.home, ".toolplane") },
      encoding: "utf8",
    });
    const r = JSON.parse(out);
    expect(r.tools).toBeGreaterThanOrEqual(4);
    expect(r.prefixHash).toMatch(/^[0-9a-f]{64}$/);
    expect(r.result).toMatchObject({ tool: "weather", isError: false });
    expect(r.result.content).toEqual([{ type: "text", text: "Lisbon: 16 °C" }]);
    expect(r.ai).toContain("ticket_status");
    expect(r.agents).toContain("ticket_status");
    // grep runs ripgrep from its platform package, as installed
    expect(JSON.stringify(r.grep)).toContain("notes.txt");
    // bash's parser: the native binding from its optional dependency, loaded from the install
    // (wherever it loads in this repository's own);
    // the line is read-only, so it runs in the sandbox, or asks (denied, no approver) without bwrap
    expect(["ran", "permission_denied"]).toContain(r.bash);
    expect(r.hook).toBe(true);
    expect(r.nativeParser).toBe(nativeHere);
    expect(r.deep).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED");
  });

  it("the bin runs through npx: --version and catalog", () => {
    const env = npmEnv({ HOME: project.home, TOOLPLANE_HOME: path.join(project.home, ".toolplane") });
    expect(sh(NPX, ["--offline", "toolplane", "--version"], consumer, env).trim()).toBe(pkg.version);
    const catalog = JSON.parse(
      sh(NPX, ["--offline", "toolplane", "catalog", "--json", "--cwd", project.repo], consumer, env),
    );
    const names = (catalog.tools as Array<{ name: string }>).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["read", "grep", "glob"]));
    expect(catalog.prefixHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a tool module that imports toolplane runs in the installed CLI", () => {
    // the module resolves "toolplane" from the consumer's node_modules: the bundle's library entry,
    // which shares its chunks with the bin that loads the module
    const repo = path.join(own, "with-module");
    mkdirSync(path.join(repo, ".git"), { recursive: true });
    mkdirSync(path.join(repo, ".toolplane"), { recursive: true });
    writeFileSync(
      path.join(repo, "shout.mjs"),
      `import { defineTool } from "toolplane";
import { z } from "zod";
export const tools = [defineTool({
  name: "shout",
  description: "Upper-cases a word.",
  parameters: z.object({ word: z.string() }),
  output: { schema: z.object({ loud: z.string() }), render: (v) => v.loud },
  execute: ({ word }) => ({ loud: word.toUpperCase() }),
})];
`,
    );
    writeFileSync(
      path.join(repo, ".toolplane", "config.json"),
      JSON.stringify({ tools: { modules: ["shout.mjs"] } }),
    );
    const env = npmEnv({
      HOME: project.home,
      TOOLPLANE_HOME: path.join(project.home, ".toolplane"),
      TOOLPLANE_TRUST_PROJECTS: JSON.stringify([repo]),
    });
    const catalog = JSON.parse(
      sh(NPX, ["--offline", "toolplane", "catalog", "--json", "--cwd", repo], consumer, env),
    );
    expect(catalog.problems ?? []).toEqual([]);
    expect((catalog.tools as Array<{ name: string }>).map((t) => t.name)).toContain("shout");
    const out = sh(
      NPX,
      ["--offline", "toolplane", "call", "shout", "--args", '{"word":"hi"}', "--cwd", repo],
      consumer,
      env,
    );
    expect(out).toContain("HI");
  });
});
