import type { Command } from "commander";
import type { AskRequest, ToolResult } from "../../execute/index.js";
import {
  type CommonOptions,
  examples,
  openToolplane,
  printJson,
  say,
  UsageError,
  withCommon,
} from "../common.js";

interface CallOptions extends CommonOptions {
  args?: string;
  yes?: boolean;
}

export function callCommand(program: Command): void {
  const cmd = program
    .command("call")
    .description(
      "run one tool call as the host would: validation, permissions, timeout, result limits and spill",
    )
    .argument("<tool>", "the tool's name")
    .option("--args <json>", "the call's arguments as JSON text (default: {})")
    .option("--yes", "approve every permission that asks (without it, an ask is denied)");
  withCommon(cmd);
  examples(cmd, [
    `toolplane call ticket_status --args '{"ticket_id": "T-1001"}'`,
    `toolplane call ticket_status --args '{"ticket_id": "T-1002", "include_history": true}' --json`,
    'toolplane call grep --args \'{"pattern": "TODO"}\' --set results.inlineMaxBytes=4096',
  ]);
  cmd.action(async (tool: string, opts: CallOptions) => {
    if (tool.trim() === "") throw new UsageError("give the tool's name, e.g. toolplane call ticket_status");
    const plane = await openToolplane(opts);
    try {
      // without --yes no approver is attached: the host denies every ask
      const ask = (req: AskRequest) => {
        say(`approved (--yes): ${req.decision.message}`);
        return true;
      };
      // the text is handed to the host as is: bad JSON is the model's kind of mistake, answered as a result
      const result = await plane.call(tool, opts.args ?? "{}", opts.yes ? { ask } : {});
      if (
        result.error?.code === "permission_denied" &&
        !opts.yes &&
        /not approved/.test(result.error.message)
      ) {
        say("toolplane: the call needs approval: run with --yes to approve asks");
      }
      if (opts.json) printJson(result);
      else process.stdout.write(formatResult(result));
      if (result.isError) process.exitCode = 1;
    } finally {
      // the result may name a spill file for the person to open: it outlives this process (an
      // old one is swept by a later session after results.spillMaxAgeHours)
      await plane.close({ keepSpill: true });
    }
  });
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
