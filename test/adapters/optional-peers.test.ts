import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const SDKS =
  /^(ai|ai\/.*|@openai\/agents.*|@ai-sdk\/.*|langchain(\/.*)?|@langchain\/.*|@anthropic-ai\/claude-agent-sdk.*)$/;

/** Every module specifier reachable from `entry` through relative imports (type-only ones skipped). */
function reachable(entry: string): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, "utf8");
    const specifiers =
      /^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;
    for (const m of text.matchAll(specifiers)) {
      const spec = (m[1] ?? m[2])!;
      if (spec.startsWith(".")) todo.push(path.resolve(path.dirname(file), spec.replace(/\.js$/, ".ts")));
      else packages.set(spec, path.relative(root, file));
    }
  }
  return { files, packages };
}

describe("the SDKs stay optional", () => {
  it("the package root and the CLI never load ai, @openai/agents, langchain or the Claude Agent SDK", () => {
    for (const entry of ["src/index.ts", "src/cli/run.ts"]) {
      const { files, packages } = reachable(path.join(root, entry));
      expect(files.size).toBeGreaterThan(20);
      const sdk = [...packages].filter(([p]) => SDKS.test(p));
      expect(sdk, `${entry} reaches an optional SDK`).toEqual([]);
    }
  });

  it("the adapter modules are the ones that do (the check can see them)", () => {
    expect([...reachable(path.join(root, "src/adapters/ai-sdk.ts")).packages.keys()]).toContain("ai");
    expect([...reachable(path.join(root, "src/adapters/openai-agents.ts")).packages.keys()]).toContain(
      "@openai/agents",
    );
    expect([...reachable(path.join(root, "src/adapters/langchain.ts")).packages.keys()]).toContain(
      "langchain",
    );
    expect([...reachable(path.join(root, "src/adapters/claude-agent-sdk.ts")).packages.keys()]).toContain(
      "@anthropic-ai/claude-agent-sdk",
    );
  });

  it("package.json declares them as optional peers, and exports the adapters by subpath", () => {
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
    for (const name of [
      "ai",
      "@openai/agents",
      "langchain",
      "@langchain/core",
      "@anthropic-ai/claude-agent-sdk",
    ]) {
      expect(pkg.peerDependencies[name]).toBeDefined();
      expect(pkg.peerDependenciesMeta[name]).toEqual({ optional: true });
      expect(pkg.dependencies[name]).toBeUndefined();
    }
    expect(Object.keys(pkg.exports)).toEqual([
      ".",
      "./ai-sdk",
      "./openai-agents",
      "./langchain",
      "./claude-agent-sdk",
    ]);
  });
});
