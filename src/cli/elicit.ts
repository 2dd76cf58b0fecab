// How `toolplane call` answers an MCP server's elicitation (a form for the person), as it answers a
// permission ask: with --yes, accept with the schema's defaults when every required field has one
// (else decline: --yes never invents an answer); on a terminal, the form field by field; otherwise
// no one can answer, and the client does not offer elicitation to servers at all.
import { createInterface } from "node:readline";
import {
  defaultAnswer,
  type ElicitationAnswer,
  type ElicitationField,
  type ElicitationHandler,
  type ElicitationRequest,
  type ElicitationValue,
  valueProblem,
} from "../mcp/client/elicitation.js";
import type { ApproverStreams } from "./approve.js";
import { say } from "./common.js";

/** Tries per field before the form is cancelled. */
const TRIES = 3;

export function cliElicitation(
  opts: { yes?: boolean },
  streams: ApproverStreams = { input: process.stdin, output: process.stderr },
): ElicitationHandler | undefined {
  if (opts.yes) {
    return (req) => {
      const answer = defaultAnswer(req.fields);
      const missing = req.fields.filter((f) => f.required && f.default === undefined).map((f) => f.name);
      say(
        answer.action === "accept"
          ? `MCP server "${req.server}" asked: ${printable(req.message)}; answered with its defaults (--yes)`
          : `MCP server "${req.server}" asked: ${printable(req.message)}; declined (--yes): ${missing.join(", ")} ha${missing.length === 1 ? "s" : "ve"} no default`,
      );
      return answer;
    };
  }
  if (!streams.input.isTTY || !streams.output.isTTY) return undefined;
  return (req) => askOnTerminal(req, streams);
}

/** Server text on the terminal: no control characters (an escape sequence could rewrite the screen). */
export function printable(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, "")
    .slice(0, 4000);
}

async function askOnTerminal(req: ElicitationRequest, streams: ApproverStreams): Promise<ElicitationAnswer> {
  const rl = createInterface({ input: streams.input, output: streams.output, terminal: true });
  const closed = new Promise<undefined>((resolve) => rl.once("close", () => resolve(undefined)));
  const ask = (q: string) =>
    Promise.race([new Promise<string>((resolve) => rl.question(q, resolve)), closed]);
  rl.on("SIGINT", () => rl.close());
  req.signal.addEventListener("abort", () => rl.close(), { once: true });
  try {
    streams.output.write(
      `MCP server "${req.server}" asks:\n  ${printable(req.message).replace(/\n/g, "\n  ")}\n`,
    );
    const go = await ask("Answer it? [y/N] ");
    if (go === undefined) return { action: "cancel" };
    if (!/^\s*y(es)?\s*$/i.test(go)) return { action: "decline" };
    const content: Record<string, ElicitationValue> = {};
    for (const field of req.fields) {
      const value = await askField(field, ask, streams);
      if (value === null) return { action: "cancel" };
      if (value !== undefined) content[field.name] = value;
    }
    return { action: "accept", content };
  } finally {
    rl.close();
  }
}

/** One field's value; undefined: left empty (optional, no default); null: given up. */
async function askField(
  field: ElicitationField,
  ask: (q: string) => Promise<string | undefined>,
  streams: ApproverStreams,
): Promise<ElicitationValue | undefined | null> {
  const label = printable(field.title ?? field.name);
  if (field.description) streams.output.write(`  ${printable(field.description)}\n`);
  if (field.options)
    field.options.forEach((o, i) => {
      streams.output.write(`    ${i + 1}. ${printable(o.title ?? o.value)}\n`);
    });
  const hint = [
    field.type === "multi" ? "numbers, comma-separated" : field.options ? "a number" : field.type,
    field.required ? "required" : "optional",
    field.default === undefined ? "" : `Enter for ${printable(JSON.stringify(field.default))}`,
  ]
    .filter(Boolean)
    .join("; ");
  for (let i = 0; i < TRIES; i++) {
    const line = await ask(`  ${label} (${hint}): `);
    if (line === undefined) return null;
    const text = line.trim();
    if (text === "") {
      if (field.default !== undefined) return field.default;
      if (!field.required) return undefined;
      streams.output.write("  required: give a value\n");
      continue;
    }
    const value = parse(field, text);
    const problem = valueProblem(field, value);
    if (!problem) return value as ElicitationValue;
    streams.output.write(`  ${problem}\n`);
  }
  return null;
}

function parse(field: ElicitationField, text: string): unknown {
  const choice = (t: string) => {
    const n = Number(t);
    const options = field.options ?? [];
    return Number.isInteger(n) && n >= 1 && n <= options.length ? options[n - 1]?.value : t;
  };
  switch (field.type) {
    case "boolean":
      return /^(y|yes|true)$/i.test(text) ? true : /^(n|no|false)$/i.test(text) ? false : text;
    case "number":
    case "integer":
      return Number.isNaN(Number(text)) ? text : Number(text);
    case "enum":
      return choice(text);
    case "multi":
      return text
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean)
        .map(choice);
    default:
      return text;
  }
}
