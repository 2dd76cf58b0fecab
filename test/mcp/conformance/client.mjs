// The MCP conformance suite's client command (`conformance client --command ...`): the suite runs
// `<command> <server-url>` with MCP_CONFORMANCE_SCENARIO set (and MCP_CONFORMANCE_CONTEXT for the
// scenarios that hand the client credentials). This maps that invocation to what a user runs: the
// scenario's server configured as `mcp.servers.conformance` (through --set), and `toolplane call`
// of the tool the scenario expects (`toolplane catalog` for initialize, whose server has none), in
// a fresh HOME and $TOOLPLANE_HOME. The CLI's own entry point runs in this process: the same code
// as `toolplane` on a PATH, without a second Node start per scenario.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../dist/src/cli/main.cjs");
const url = process.argv[2] ?? "";
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");

// What each scenario's server expects to be called; every auth scenario's server has `test-tool`.
const CALLS = {
  initialize: undefined,
  tools_call: ["add_numbers", { a: 2, b: 3 }],
  "sse-retry": ["test_reconnection", {}],
  "elicitation-sep1034-client-defaults": ["test_client_elicitation_defaults", {}],
};
const call = scenario in CALLS ? CALLS[scenario] : ["test-tool", {}];

// A client ID metadata document where the authorization server supports them (auth/basic-cimd),
// dynamic registration elsewhere; the pre-registered client where the scenario gives one.
const oauth =
  typeof context.client_id === "string"
    ? { clientId: context.client_id, clientSecret: context.client_secret }
    : { clientMetadataUrl: "https://conformance-test.local/client-metadata.json" };

const tmp = process.env.TP_CONFORMANCE_TMP ?? tmpdir();
const home = mkdtempSync(path.join(tmp, "client-"));
process.on("exit", (code) => {
  rmSync(home, { recursive: true, force: true });
  // the suite keeps a client's output but not its exit code, which the test checks too
  if (process.env.TP_CONFORMANCE_TMP)
    writeFileSync(path.join(tmp, `${scenario.replace(/\//g, "_")}.exit`), String(code));
});
process.env.HOME = home;
process.env.TOOLPLANE_HOME = path.join(home, "toolplane");

const command = call
  ? ["call", `mcp__conformance__${call[0]}`, "--args", JSON.stringify(call[1]), "--yes"]
  : ["catalog"];
process.argv = [
  process.execPath,
  CLI,
  ...command,
  "--json",
  "--cwd",
  home,
  "--set",
  // the suite starts all its clients at once: on a small loaded machine initialize can take longer
  // than the default 8 s (a user's setting, and a test of nothing in the protocol)
  `mcp.servers=${JSON.stringify({ conformance: { url, oauth, startTimeoutMs: 30_000 } })}`,
];
await import(pathToFileURL(CLI).href);
