// Writes the built-in tools' prebuilt schemas and the configuration keys' validators (scripts/prebuilt.ts). The generator is TypeScript
// that imports the Zod declarations, so esbuild bundles it to a temporary module first.
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "scripts", `.prebuilt-${process.pid}.mjs`);
try {
  await build({
    absWorkingDir: root,
    entryPoints: ["scripts/prebuilt.ts"],
    outfile: out,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
  const { PREBUILT_MODULES, generateModule, generateKeyChecks, CONFIG_KEYS } = await import(pathToFileURL(out).href);
  for (const module of PREBUILT_MODULES) {
    writeFileSync(path.join(root, module.file), generateModule(module));
    console.log(`wrote ${module.file}`);
  }
  writeFileSync(path.join(root, "src/config/keys.gen.ts"), generateKeyChecks(CONFIG_KEYS));
  console.log("wrote src/config/keys.gen.ts");
} finally {
  rmSync(out, { force: true });
}
