// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, from .ci/conformance,
// as for the server half) against toolplane's client: the suite starts each scenario's server and runs its client command with the server's
// URL; test/mcp/conformance/client.mjs maps that to `toolplane call` (or `toolplane catalog`) on
// a server configured as `mcp.servers.conformance`, and logins go through $BROWSER (a script that
// loads the authorization page and follows its redirects, as a browser does). docs/mcp.md says what
// each scenario covers.

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { clientVerdicts, conformanceRunner, runClientSuite } from "../helpers/conformance.js";
import { tempDir } from "../helpers/tmp.js";

/**
 * The 20 (the suite's "core" suite, 18, and "backcompat", 2), and its "draft" suite (3).
 * Not run: the 3 "extensions" scenarios (client_credentials with a JWT or a secret, cross-app
 * access), OAuth grants toolplane does not implement (docs/mcp.md).
 */
export const CLIENT_SCENARIOS = [
  "initialize",
  "tools_call",
  "elicitation-sep1034-client-defaults",
  "sse-retry",
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
];
/**
 * Scenarios whose client is expected to fail (the suite's allowClientError): the server never
 * relents; the protected resource names another server's URL (no token may go there).
 */
const CLIENT_MAY_FAIL = new Set(["auth/scope-retry-limit", "auth/resource-mismatch"]);

const runner = await conformanceRunner();
const skip = "skip" in runner ? runner.skip : undefined;
if (skip) process.stderr.write(`toolplane tests: ${skip}\n`);

/** The suite's verdicts on the client, toolplane's CLI through client.mjs. */
async function run(which: { suite: string } | { scenario: string }, tmp: string) {
  if ("skip" in runner) throw new Error(runner.skip);
  const out = tempDir("tp-conformance-out-");
  const client = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(ROOT, "test", "mcp", "conformance", "client.mjs"))}`;
  await runClientSuite(runner, which, client, out, {
    BROWSER: path.join(ROOT, "test", "mcp", "conformance", "browser.sh"),
    TP_CONFORMANCE_TMP: tmp,
  });
  // the suite keeps a client's output but not its exit code: client.mjs writes it beside
  return clientVerdicts(out, (scenario, folder, checksFailed) => {
    const exitFile = path.join(tmp, `${scenario.replace(/\//g, "_")}.exit`);
    const exit = existsSync(exitFile) ? Number(readFileSync(exitFile, "utf8")) : null;
    // stderr, and stdout's end (catalog --json names a server that failed to start only there)
    const said = () =>
      ["stderr", "stdout"]
        .map((f) =>
          readFileSync(path.join(folder, `${f}.txt`), "utf8")
            .replace(/\s+/g, " ")
            .slice(-400),
        )
        .join(" | ");
    if (exit !== 0 && !CLIENT_MAY_FAIL.has(scenario))
      return [`the client exited ${exit} (stderr | stdout: ${said()})`];
    // beside a failure of the suite's checks, what the CLI saw
    return checksFailed ? [`(the client said: ${said()})`] : [];
  });
}

describe.skipIf(skip !== undefined)(
  "the MCP conformance suite's client scenarios, toolplane call as the client",
  () => {
    it("passes the 23 that apply", { timeout: 300_000 }, async () => {
      const tmp = tempDir("tp-conformance-tmp-");
      // the "core" suite (18 scenarios at once), "backcompat" (2) and "draft" (3) run together
      const suites = await Promise.all(["core", "backcompat", "draft"].map((suite) => run({ suite }, tmp)));
      const got = Object.assign({}, ...suites);
      // sse-retry times the client's reconnection (the server's retry is 500 ms; 200 ms late is a
      // warning): with 22 other clients starting on the same cores, that measures the machine. Its
      // verdict comes from a run of its own, after the others.
      got["sse-retry"] = (await run({ scenario: "sse-retry" }, tmp))["sse-retry"] ?? "did not run";
      // a scenario that failed beside 22 others on a loaded machine (elicitation's answer missed the
      // suite's 60 s in 2 of 3 runs at load 20 and passed alone) gets one run of its own, said on stderr
      for (const [scenario, verdict] of Object.entries(got)) {
        if (verdict === "pass" || scenario === "sse-retry") continue;
        process.stderr.write(
          `toolplane tests: conformance client scenario ${scenario} failed beside the others (${JSON.stringify(verdict).slice(0, 300)}); run again on its own\n`,
        );
        got[scenario] = (await run({ scenario }, tmp))[scenario] ?? "did not run";
      }
      expect(got).toEqual(Object.fromEntries(CLIENT_SCENARIOS.map((s) => [s, "pass"])));
    });
  },
);
