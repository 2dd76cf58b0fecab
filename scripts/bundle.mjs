// The shipped JavaScript. All of toolplane's code is one CommonJS file built by esbuild,
// dist/src/chunks/core-HASH.cjs (src/core.ts): the library entry, the two adapters and the CLI
// load that one module, so a tool module that imports `toolplane` and the CLI that loads it use one
// copy (one registry of declared tools, one set of module-level caches). CommonJS because Node 20
// can compile a script with V8's code cache and cannot an ES module: the CLI keeps the cache
// between runs (src/cli/code-cache.ts; docs/startup.md). The package's entries stay ES modules:
// each is a few lines that require the core and name its exports (listed here from esbuild's
// metafile, so `import { defineTool } from "toolplane"` is checked at link time as before).
// Dependencies stay external: they resolve from node_modules, each loaded only when used (ajv,
// the MCP SDK, ripgrep, tree-sitter, ...), and a user's zod is the library's zod. `tsc` still
// emits the declarations, and each file's JavaScript, which the benchmarks in dist/bench import;
// the package ships only the bundle (package.json "files").
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const chunks = path.join(root, "dist", "src", "chunks");
rmSync(chunks, { recursive: true, force: true });

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  target: "node20",
  packages: "external",
  // Whitespace and syntax only: names stay as written, so a stack trace a user sends still reads.
  // The CLI reads the whole core in every process (1.09 MB to 0.83 MB; ~8 ms a MB on this machine).
  minifyWhitespace: true,
  minifySyntax: true,
  // Lines of at most ~120 characters: Node prints the source line an uncaught error was thrown
  // from, and a DeclarationError from a user's defineTool printed 39,600 characters of one minified
  // line before its message (now ~800 in all; test/package/guides.test.ts). 1% more bytes. A long
  // string is split with a line continuation (backslash, newline), which is not in its value.
  lineLimit: 120,
  legalComments: "none",
  logLevel: "warning",
};

// import.meta.url in a CommonJS bundle: the file's own URL, as the ES module had
const urlShim = 'var __toolplaneModuleUrl = require("node:url").pathToFileURL(__filename).href;';

// Two small dependencies ship only as ES modules, which a CommonJS require() loads only from Node
// 20.19 on (with a warning outside node_modules) and with the wrong default export: they are
// bundled into the core, with their licences at its head. Every other dependency stays external.
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const inlined = { stemmer: "license", tinyqueue: "LICENSE" };
const external = Object.keys({
  ...pkg.dependencies,
  ...pkg.optionalDependencies,
  ...pkg.peerDependencies,
  ...pkg.devDependencies,
}).filter(
  (name) => !(name in inlined),
);
const licences = Object.entries(inlined)
  .map(([name, file]) => {
    const { version } = JSON.parse(readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8"));
    const text = readFileSync(path.join(root, "node_modules", name, file), "utf8").trim();
    return `/*! ${name} ${version}, bundled from its npm package:\n${text.replaceAll("*/", "* /")}\n*/`;
  })
  .join("\n");

// the core; it sits in dist/src/chunks, one folder below dist/src as each module's own file was,
// so a path a module finds from import.meta.url (walking up to package.json) still holds
const core = await build({
  ...common,
  entryPoints: { core: "src/core.ts" },
  outdir: "dist/src/chunks",
  entryNames: "[name]-[hash]",
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  packages: undefined,
  external,
  define: { "import.meta.url": "__toolplaneModuleUrl" },
  banner: { js: `${licences}\n${urlShim}` },
  metafile: true,
});
const coreFile = path.basename(Object.keys(core.metafile.outputs).find((f) => f.endsWith(".cjs")));
// One character past ASCII (esbuild escapes them in code, not in the comments it keeps) makes the
// whole ~1 MB source a two-byte string: reading it then took 12 ms instead of 1, and V8 scans twice
// the bytes. Refused here, with where it is.
const coreText = readFileSync(path.join(chunks, coreFile), "utf8");
// An import() compiled from the CLI's code cache has no loader on Node 20: every dynamic import
// goes through util/import-module.ts, whose own import() is the one left in the bundle.
// (The local embedder's worker is source text eval'd in a thread of its own, which Node compiles
// itself: its import(workerData...) calls are not counted.)
const imports = coreText.match(/(?<![\w$.])import\((?!workerData\.)/g)?.length ?? 0;
if (imports !== 1)
  throw new Error(`${coreFile}: ${imports} import() calls; import packages and files through importModule (src/util/import-module.ts)`);
const wide = coreText.search(/[^\x00-\x7f]/);
if (wide >= 0) {
  const line = coreText.slice(0, wide).split("\n").length;
  throw new Error(`${coreFile}:${line}: a character past ASCII (${JSON.stringify(coreText[wide])}); write it as an escape, or in plain ASCII in a comment`);
}

// each public entry's export names, read from an ES module build of it that is not written
const entries = {
  "src/index.ts": { out: "dist/src/index.js", from: ".library()" },
  "src/adapters/ai-sdk.ts": { out: "dist/src/adapters/ai-sdk.js", from: ".aiSdk()" },
  "src/adapters/openai-agents.ts": { out: "dist/src/adapters/openai-agents.js", from: ".openAiAgents()" },
  "src/adapters/langchain.ts": { out: "dist/src/adapters/langchain.js", from: ".langchain()" },
  "src/adapters/claude-agent-sdk.ts": { out: "dist/src/adapters/claude-agent-sdk.js", from: ".claudeAgentSdk()" },
};
const names = await build({
  ...common,
  entryPoints: Object.keys(entries),
  outdir: "dist/names",
  format: "esm",
  write: false,
  metafile: true,
});
for (const output of Object.values(names.metafile.outputs)) {
  const entry = entries[output.entryPoint];
  if (!entry) continue;
  const exported = [...output.exports].sort();
  const relCore = path.relative(path.dirname(path.join(root, entry.out)), path.join(chunks, coreFile));
  writeFileSync(
    path.join(root, entry.out),
    [
      "// toolplane's code is one CommonJS module (scripts/bundle.mjs); this entry names its exports",
      'import { createRequire } from "node:module";',
      `const core = createRequire(import.meta.url)(${JSON.stringify(`./${relCore}`)})${entry.from};`,
      `export const { ${exported.join(", ")} } = core;`,
      "",
    ].join("\n"),
  );
}

// The CLI's entry, with start.ts in it as a module run on first import, so --version loads
// nothing else. CommonJS too: an ES module entry makes Node load its ES module loader (a dozen
// internal modules, fs/promises and readline with them) before any of our code runs.
await build({
  ...common,
  entryPoints: ["src/cli/main.ts"],
  outfile: "dist/src/cli/main.cjs",
  format: "cjs",
  define: { TOOLPLANE_CORE: JSON.stringify(coreFile), "import.meta.url": "__toolplaneModuleUrl" },
  banner: { js: urlShim },
});
rmSync(path.join(root, "dist/src/cli/main.js"), { force: true });
