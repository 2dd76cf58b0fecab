// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16) and the Node 22 it
// needs (fs.globSync), both from the registry: `.ci/conformance` pins them apart from toolplane's
// own dependencies (Node's binary package is per platform; there it is an optional dependency, so
// `npm ci` skips it where it does not fit), and .ci/run installs them with
// `npm ci --prefix .ci/conformance`. Without them the tests skip with one line saying so.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const CONFORMANCE_DIR = fileURLToPath(new URL("../../.ci/conformance", import.meta.url));
export const CONFORMANCE_INSTALL = "npm ci --prefix .ci/conformance";

export interface ConformanceRunner {
  /** A Node 22 binary. */
  node: string;
  /** The suite's command line entry (dist/index.js). */
  bin: string;
}

/** The suite and its Node, or the one line a test skips with. */
export async function conformanceRunner(): Promise<ConformanceRunner | { skip: string }> {
  const modules = path.join(CONFORMANCE_DIR, "node_modules");
  const node = path.join(modules, `node-${process.platform}-${process.arch}`, "bin", "node");
  const bin = path.join(modules, "@modelcontextprotocol", "conformance", "dist", "index.js");
  if (!existsSync(bin) || !existsSync(node))
    return {
      skip: `the MCP conformance tests skip: ${CONFORMANCE_INSTALL} (the suite and a Node 22 for ${process.platform}-${process.arch} from the registry)`,
    };
  return { node, bin };
}

export interface ScenarioResult {
  scenario: string;
  passed: number;
  failed: number;
  /** The checks the suite wrote (checks.json), for a failure's message or a closer look. */
  checks: Array<{ id: string; status: string; errorMessage?: string; details?: unknown }>;
}

/**
 * Runs `conformance server --url URL` (the active suite) and reads each scenario's summary line and
 * checks.json. Its output is captured, never printed: its last line ("Total: N passed, M failed")
 * would read as this run's own count.
 */
export async function runServerSuite(
  runner: ConformanceRunner,
  url: string,
  outDir: string,
): Promise<{ code: number | null; output: string; scenarios: ScenarioResult[] }> {
  const child = spawn(runner.node, [runner.bin, "server", "--url", url, "-o", outDir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    output += c.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  const summary = output.slice(output.lastIndexOf("=== SUMMARY ==="));
  const dirs = existsSync(outDir) ? readdirSync(outDir) : [];
  const scenarios = [...summary.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed$/gmu)].map((m) => {
    const scenario = m[1]!;
    const dir = dirs.find(
      (d) => d.startsWith(`server-${scenario}-`) && /\d{4}-\d\d-\d\dT/.test(d.slice(scenario.length + 8)),
    );
    const checks = dir ? JSON.parse(readFileSync(path.join(outDir, dir, "checks.json"), "utf8")) : [];
    return { scenario, passed: Number(m[2]), failed: Number(m[3]), checks };
  });
  return { code, output, scenarios };
}
