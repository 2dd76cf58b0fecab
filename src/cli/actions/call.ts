import type { Toolplane } from "../../assemble/index.js";
import { displayCall } from "../../declare/display.js";
import type { ToolResult } from "../../execute/index.js";
import { couldComeFrom, MCP_NAME_PREFIX } from "../../mcp/names.js";
import { cliApprover } from "../approve.js";
import { browserOpener, cliLogin } from "../browser.js";
import { NOT_READ_HINT, openCallSession } from "../call-session.js";
import { type CommonOptions, printJson, say, UsageError } from "../common.js";
import { cliElicitation } from "../elicit.js";
import { openToolplane } from "../open.js";

interface CallOptions extends CommonOptions {
  args?: string;
  yes?: boolean;
  session?: string;
}

/** `toolplane call`: its options and help are in commands/call.ts, loaded without this module. */
export const action = async (tool: string, opts: CallOptions) => {
  if (tool.trim() === "") throw new UsageError("give the tool's name, e.g. toolplane call read");
  const args = opts.args ?? "{}";
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch (error) {
    // the person's typo, not the model's: say so before anything runs
    throw new UsageError(
      `--args is not JSON (${(error as Error).message}); quote it for the shell, e.g. --args '{"path": "README.md"}'`,
    );
  }
  // only the MCP server the name points at is started: a call of a built-in never waits for one.
  // A server that asks for a login gets it inline when a browser can be opened; its elicitation
  // is answered as an ask is (--yes: the schema's defaults; a terminal: the form)
  const opener = browserOpener();
  const onElicitation = cliElicitation(opts);
  const plane = await openToolplane(opts, {
    mcpServers: (server) => couldComeFrom(server, tool),
    ...(opener ? { mcpLogin: cliLogin(opener, say) } : {}),
    ...(onElicitation ? { onElicitation } : {}),
  });
  try {
    const session = opts.session === undefined ? undefined : await openCallSession(plane, opts.session);
    // a person names the tool directly: a deferred one is loaded as tool_search would for a model
    if ((await plane.load([tool])).length > 0)
      say(`note: ${tool} is deferred (the model loads it with tool_search first); loaded for this call`);
    // --yes, or a y/N question on a terminal; with neither, the host denies every ask
    const ask = cliApprover(opts);
    if (!opts.json) await sayWhatRuns(plane, tool, parsed);
    // the text is handed to the host as is, as a model's arguments are
    const result = await plane.call(tool, args, ask ? { ask } : {});
    await session?.save();
    if (opts.json) printJson(result);
    else process.stdout.write(formatResult(result));
    sayNextSteps(plane, result, { approver: ask !== undefined, session: session !== undefined });
    if (result.isError) process.exitCode = 1;
  } finally {
    // the result may name a spill file for the person to open: it outlives this process (an
    // old one is swept by a later session after results.spillMaxAgeHours)
    await plane.close({ keepSpill: true });
  }
};

/** The tool's display title and summary of this call, for the person (the model never sees them). */
async function sayWhatRuns(plane: Toolplane, tool: string, args: unknown): Promise<void> {
  const entry = (await plane.toolSnapshot()).get(tool)?.entry;
  if (!entry) return;
  const { title, summary } = displayCall(entry, args);
  say(summary ? `${title}: ${summary}` : title);
}

/** What the person does next, on stderr after the result (the result's text is the model's). */
function sayNextSteps(plane: Toolplane, result: ToolResult, had: { approver: boolean; session: boolean }) {
  const message = result.error?.message ?? "";
  if (result.error?.code === "permission_denied" && !had.approver && /not approved/.test(message))
    say(
      "toolplane: the call needs approval: run it on a terminal to be asked, or with --yes to approve every ask",
    );
  const login = /needs login: (toolplane mcp login \S+)/.exec(message);
  if (login)
    say(
      `toolplane: \`${login[1]}\` opens a browser to log in; a call logs in by itself where $BROWSER (or the system's opener) can open one`,
    );
  else if (result.error?.code === "unknown_tool") {
    const servers = Object.keys(plane.config.get("mcp.servers") as object).length > 0;
    // the MCP servers were not started for a name outside mcp__: their tools are not in the answer
    if (servers && !result.tool.startsWith(MCP_NAME_PREFIX))
      say("toolplane: MCP servers' tools are named mcp__<server>__<tool>; `toolplane catalog` lists them");
    say("toolplane: `toolplane catalog` lists the tools; `toolplane search QUERY` finds one by what it does");
  }
  if (!had.session && /has not been read in this session/.test(message)) say(NOT_READ_HINT);
  if (result.spillPath !== undefined) {
    // the text tells a model to page through the file with read; a later `toolplane call read` is
    // another session, whose boundary does not hold this one's spill directory
    const hours = plane.config.get("results.spillMaxAgeHours");
    say(
      `toolplane: the whole output is in ${result.spillPath}; open it with a pager (less, an editor). ` +
        `A later toolplane run removes it once it is older than results.spillMaxAgeHours (${hours} h).`,
    );
  }
}

function formatResult(result: ToolResult): string {
  const lines: string[] = [];
  for (const block of result.content) {
    if (block.type === "text") lines.push(block.text);
    else lines.push(`[${block.type}: ${block.mimeType}, ${block.data.length} base64 characters]`);
  }
  if (result.isError && result.error) say(`${result.tool}: ${result.error.code}`);
  return `${lines.join("\n")}\n`;
}
