// The shipped JavaScript: the package's entry points (the library, its two adapters, the CLI)
// bundled by esbuild with code splitting. Node 20's ES module loader pays about a millisecond per
// file before any code runs, and a `catalog` loads ~180 of toolplane's own files; bundled, they
// are a few chunks, and the library and the CLI share those chunks, so a tool module that imports
// `toolplane` and the CLI that loads it use one copy (one registry of declared tools, one set of
// module-level caches). Dependencies stay external: they resolve from node_modules as before,
// each still loaded only when used (ajv, the MCP SDK, ripgrep, tree-sitter, ...), and a user's
// zod is the library's zod. `tsc` still emits the declarations, and each file's JavaScript, which
// the benchmarks in dist/bench import; the package ships only the bundle (package.json "files").
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const chunks = path.join(root, "dist", "src", "chunks");
rmSync(chunks, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ["src/index.ts", "src/adapters/ai-sdk.ts", "src/adapters/openai-agents.ts", "src/cli/main.ts"],
  outdir: "dist",
  outbase: ".",
  // every chunk sits in dist/src/chunks: one folder below dist/src, as each entry's own files
  // were, so a path a module finds from import.meta.url (walking up to package.json) still holds
  chunkNames: "src/chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  // names stay readable in stack traces a user sends; minifying saves little of the load time
  minify: false,
  legalComments: "none",
  logLevel: "warning",
});
