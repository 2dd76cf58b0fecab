// The official MCP conformance suite's server scenarios against `toolplane serve --http` over
// examples/mcp-everything, as a user runs it (docs/mcp.md).
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ConformanceRunner, conformanceRunner, runServerSuite } from "../helpers/conformance.js";
import { tempDir } from "../helpers/tmp.js";
import { everythingProject } from "./everything-fixture.js";
import { type ServeHttp, startServeHttp } from "./serve-process.js";

/** The active server scenarios of @modelcontextprotocol/conformance 0.1.16, in its order. */
const ACTIVE = [
  "server-initialize",
  "logging-set-level",
  "ping",
  "completion-complete",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-with-logging",
  "tools-call-error",
  "tools-call-with-progress",
  "tools-call-sampling",
  "tools-call-elicitation",
  "elicitation-sep1034-defaults",
  "server-sse-multiple-streams",
  "elicitation-sep1330-enums",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "resources-subscribe",
  "resources-unsubscribe",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "dns-rebinding-protection",
];

const runner = await conformanceRunner();
if ("skip" in runner) console.log(runner.skip);

describe.skipIf("skip" in runner)(
  "MCP conformance suite: toolplane serve over examples/mcp-everything",
  () => {
    let server: ServeHttp | undefined;
    afterAll(() => server?.stop());

    it("passes every active server scenario", async () => {
      const fixture = everythingProject();
      server = await startServeHttp(fixture.repo, fixture.env, { args: ["--no-auth"] });
      const out = path.join(tempDir("tp-conformance-"), "results");
      const run = await runServerSuite(runner as ConformanceRunner, server.url, out);
      const failed = run.scenarios
        .filter((s) => s.failed > 0)
        .map((s) => `${s.scenario}: ${s.checks.map((c) => c.errorMessage ?? "").join("; ")}`);
      expect(failed, run.output.slice(-4000)).toEqual([]);
      // a suite that ran nothing (or other scenarios) fails here, not silently
      expect(run.scenarios.map((s) => s.scenario)).toEqual(ACTIVE);
      expect(run.code).toBe(0);

      // the suite accepts any text for these (an unknown tool's error passed them before the
      // fixture existed): the fixture's own answers came back
      const details = (name: string) =>
        run.scenarios.find((s) => s.scenario === name)?.checks[0]?.details as {
          result: { isError: boolean; content: Array<{ text?: string }> };
        };
      expect(details("tools-call-simple-text").result).toEqual({
        isError: false,
        content: [{ type: "text", text: "This is a simple text response for testing." }],
      });
      expect(details("tools-call-error").result.content[0]?.text).toMatch(
        /test_error_handling.*This tool intentionally returns an error for testing/s,
      );
      expect(details("tools-call-sampling").result.content[0]?.text).toBe(
        "LLM response: This is a test response from the client",
      );
    });
  },
);
