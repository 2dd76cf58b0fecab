import { strictOptions } from "../options.js";
import type { Word } from "../words.js";
import { type ReadOnlySpec, SPECS } from "./readonly-table.js";
import { dynamicWord, type Handler, type Site } from "./site.js";

// The default read-only set (like Codex's known-safe commands): these run with no rule and no
// prompt, but only in the forms of readonly-table.ts. Each table is the command's complete option
// list; an option not in it, or one that writes or runs a program, leaves the read-only set and
// asks. Every operand is a path the command reads, checked as the read tool checks it.

/** Options that write their value (`sort -o`, `tree -o`): the call is then not read-only, and the file is a write. */
const WRITING_OPTIONS: Record<string, readonly string[]> = { tree: ["-o"], sort: ["-o", "--output"] };

/** Handlers for the read-only set: each says whether this call is in a read-only form. */
export const READ_ONLY: Record<string, Handler> = Object.fromEntries(
  Object.entries(SPECS).map(([name, spec]) => [
    name,
    (s: Site) => readOnlyCommand(s, spec, WRITING_OPTIONS[name]),
  ]),
);

function readOnlyCommand(s: Site, spec: ReadOnlySpec, writing: readonly string[] = []): void {
  const p = strictOptions(s.args, spec);
  if (p.unknown.length > 0) {
    s.ask(
      `${s.name} with ${p.unknown.join(" ")}: an option the classifier does not know (it may write or run a program)`,
    );
    return;
  }
  for (const w of writing) {
    for (const v of p.options.get(w) ?? []) s.write(v === "\0" ? dynamicWord(v) : v);
  }
  const operands = p.operands.slice(spec.skipOperands ?? 0);
  if (spec.maxOperands !== undefined && operands.length > spec.maxOperands) {
    s.ask(`${s.name} with more than ${spec.maxOperands} operand(s) may write its output to a file`);
    return;
  }
  if (!spec.noPaths) readPaths(s, spec, p.options, operands);
  if (writing.every((w) => !p.options.has(w))) s.readOnly(`${s.name}, read-only form`);
}

function readPaths(s: Site, spec: ReadOnlySpec, options: Map<string, string[]>, operands: Word[]): void {
  const recursive = spec.recursive?.includes("*") || (spec.recursive ?? []).some((o) => options.has(o));
  for (const key of spec.readOptions ?? []) {
    for (const v of options.get(key) ?? []) s.read(v === "\0" ? dynamicWord(v) : v);
  }
  const contents = recursive && spec.contents === true;
  const follows =
    recursive &&
    ((spec.follows ?? []).some((o) => options.has(o)) ||
      (spec.followsUnless !== undefined && !spec.followsUnless.some((o) => options.has(o))));
  const how = { subtree: recursive, contents, ...(follows ? { follows: true } : {}) };
  if (operands.length === 0 && spec.noOperand !== undefined) s.read(spec.noOperand, how);
  for (const o of operands) {
    if (o.value === "-") continue;
    s.read(o, how);
  }
}
