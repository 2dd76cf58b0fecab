import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * The optional peers are tested at both ends of their supported ranges: the plain devDependencies
 * (`ai`, `@openai/agents`) are the lowest supported versions, and npm aliases hold the newest
 * (`ai-7`, `openai-agents-0.20`). The "peers-newest" project runs the adapter tests again with the
 * SDK imports redirected to the aliases.
 */
const PEER_SETS = {
  lowest: {
    ai: "ai",
    agents: "@openai/agents",
    langchain: "langchain",
    claude: "@anthropic-ai/claude-agent-sdk",
  },
  newest: {
    ai: "ai-7",
    agents: "openai-agents-0.20",
    langchain: "langchain-1.5",
    claude: "claude-agent-sdk-0.3",
  },
} as const;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // each file's temp dirs are removed after it (test/helpers/tmp.ts)
    setupFiles: ["test/setup/temp-cleanup.ts"],
    // global.gc: a test proves an adapter's tool set, once dropped, stops following its plane
    poolOptions: { forks: { execArgv: ["--expose-gc"] } },
    // the read tool keeps line indexes of large files on disk: in a folder of this run's own, not
    // the user's cache (a CLI a test spawns with its own HOME keeps them under that HOME)
    env: { TOOLPLANE_CACHE_DIR: path.join(tmpdir(), `toolplane-test-cache-${process.pid}`) },
    projects: [
      {
        extends: true,
        test: {
          name: "default",
          include: ["test/**/*.test.ts"],
          provide: { peers: PEER_SETS.lowest },
          // one line per missing system part or data folder, before the run (test/helpers/system-parts.ts);
          // the run's folder for the packed tarball and its consumers (test/helpers/packed.ts)
          globalSetup: ["test/setup/missing-parts.ts", "test/setup/pack-run.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "peers-newest",
          include: ["test/adapters/*.test.ts"],
          provide: { peers: PEER_SETS.newest },
        },
        resolve: {
          alias: [
            { find: /^ai(\/.*)?$/, replacement: `${PEER_SETS.newest.ai}$1` },
            { find: /^@openai\/agents(\/.*)?$/, replacement: `${PEER_SETS.newest.agents}$1` },
            // langchain 1.5 resolves @langchain/core as its peer from the root (1.3.4, which its
            // range takes); the newest core is installed with it by the packed-tarball test
            { find: /^langchain(\/.*)?$/, replacement: `${PEER_SETS.newest.langchain}$1` },
            { find: /^@anthropic-ai\/claude-agent-sdk(\/.*)?$/, replacement: `${PEER_SETS.newest.claude}$1` },
            // the AI SDK provider packages of the newest major render its native tool search
            { find: /^@ai-sdk\/anthropic$/, replacement: "ai-sdk-anthropic-4" },
            { find: /^@ai-sdk\/openai$/, replacement: "ai-sdk-openai-4" },
          ],
        },
      },
    ],
  },
});
