// How `toolplane call` decides a permission `ask`: --yes approves every ask (scripts); on a
// terminal each ask is put to the person as a y/N question; otherwise nothing approves, so the
// host denies it and the call says how to approve.
import { createInterface } from "node:readline";
import type { AskCallback, AskRequest } from "../execute/index.js";
import { say } from "./common.js";

export interface ApproverStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean };
}

/** The approver for this run, or undefined when no one can answer (the host then denies asks). */
export function cliApprover(
  opts: { yes?: boolean; json?: boolean },
  streams: ApproverStreams = { input: process.stdin, output: process.stderr },
): AskCallback | undefined {
  if (opts.yes) {
    return (req) => {
      say(`approved (--yes): ${req.decision.message}`);
      return true;
    };
  }
  if (!streams.input.isTTY || !streams.output.isTTY) return undefined;
  return (req) => askOnTerminal(req, streams);
}

/** The question: which tool, what it would do, and the rule or default that made it ask. */
export function describeAsk(req: AskRequest): string {
  const lines = [`${req.tool} needs your approval:`];
  const pending = req.pending ?? [{ request: req.request, decision: req.decision }];
  for (const { request, decision } of pending) {
    const action = request.action === undefined ? "" : `${request.action} `;
    const subject = decision.subject === "the call" ? "the call" : decision.subject;
    lines.push(`  ${action}${subject}`);
    lines.push(`    asks because of: ${decision.decidedBy.origin}`);
    const rule = decision.decidedBy.rule;
    if (rule) lines.push(`    rule: ${JSON.stringify(rule)}`);
  }
  return lines.join("\n");
}

/** Puts one ask to the person; only "y" or "yes" approves, and the end of input denies. */
function askOnTerminal(req: AskRequest, streams: ApproverStreams): Promise<boolean> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: streams.input, output: streams.output, terminal: true });
    let answered = false;
    rl.on("close", () => {
      if (!answered) {
        streams.output.write("\n");
        resolve(false);
      }
    });
    // Ctrl-C at the question denies (readline takes it from the terminal in raw mode)
    rl.on("SIGINT", () => rl.close());
    streams.output.write(`${describeAsk(req)}\n`);
    rl.question("Approve? [y/N] ", (answer) => {
      answered = true;
      rl.close();
      resolve(/^\s*y(es)?\s*$/i.test(answer));
    });
  });
}
