import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { peerPackages } from "../helpers/peers.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const peers = peerPackages();

function installedVersion(dir: string): string {
  return JSON.parse(readFileSync(path.join(root, "node_modules", dir, "package.json"), "utf8")).version;
}

/** `1.2.3` as a comparable triple (pre-release tags are not used in these ranges). */
function triple(version: string): [number, number, number] {
  const [a = 0, b = 0, c = 0] = version.split(".").map((p) => Number.parseInt(p, 10));
  return [a, b, c];
}
function cmp(a: string, b: string): number {
  const x = triple(a);
  const y = triple(b);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}
/** The `>=LOW <HIGH` peer ranges this package declares. */
function bounds(range: string): { low: string; high: string } {
  const m = /^>=(\S+) <(\S+)$/.exec(range);
  if (!m) throw new Error(`peer range "${range}" is not of the form ">=LOW <HIGH"`);
  return { low: m[1]!, high: m[2]! };
}

describe("the adapters run against the peer versions this project says", () => {
  it("the SDK modules the adapters import are the ones this test project provides", async () => {
    // the adapter modules import "ai" and "@openai/agents"; in the peers-newest project those
    // names are redirected to the npm aliases, and this checks the redirect is what loaded
    expect(await import("ai")).toBe(await import(/* @vite-ignore */ peers.ai));
    expect(await import("@openai/agents")).toBe(await import(/* @vite-ignore */ peers.agents));
    expect(await import("langchain")).toBe(await import(/* @vite-ignore */ peers.langchain));
    expect(await import("@anthropic-ai/claude-agent-sdk")).toBe(
      await import(/* @vite-ignore */ peers.claude),
    );
  });

  it("the lowest and the newest tested versions are the ends of the declared peer ranges", () => {
    for (const [name, alias] of [
      ["ai", "ai-7"],
      ["@openai/agents", "openai-agents-0.20"],
      ["langchain", "langchain-1.5"],
      // the newest core is installed with langchain 1.5 by the packed-tarball test (test/package)
      ["@langchain/core", "langchain-core-1.4"],
      ["@anthropic-ai/claude-agent-sdk", "claude-agent-sdk-0.3"],
    ] as const) {
      const { low, high } = bounds(pkg.peerDependencies[name]);
      const lowest = installedVersion(name);
      const newest = installedVersion(alias);
      expect(pkg.devDependencies[name]).toBe(lowest);
      expect(lowest, `${name}: the plain devDependency is the range's floor`).toBe(low);
      expect(pkg.devDependencies[alias]).toBe(`npm:${name}@${newest}`);
      expect(cmp(newest, low), `${alias} is inside the range`).toBeGreaterThan(0);
      expect(cmp(newest, high), `${alias} is inside the range`).toBeLessThan(0);
      // the newest tested is in the range's last major (0.x: last minor), so the range claims no untested line
      const [hMaj, hMin] = triple(high);
      const [nMaj, nMin] = triple(newest);
      if (hMaj === 0) expect([nMaj, nMin + 1]).toEqual([0, hMin]);
      else expect(nMaj + 1).toBe(hMaj);
    }
  });
});
