import { isPattern } from "./glob.js";
import type { ParsedShell, ShellNode } from "./shell-tree.js";
import { hasBraceExpression } from "./words.js";

// `sh -c SCRIPT` runs SCRIPT with /bin/sh, which on Debian is dash, and elsewhere bash in POSIX
// mode. The classifier parses it with the bash grammar, so it models the script only where dash,
// POSIX bash and bash read it alike: each construct any of them reads otherwise asks.

const NODES: Record<string, string> = {
  ansi_c_string: "$'...' (dash reads a `$` and a quoted string)",
  translated_string: '$"..." (dash reads a `$` and a quoted string)',
  process_substitution: "process substitution <(...) (dash has none)",
  herestring_redirect: "here-string <<< (dash has none)",
  brace_expression: "brace expansion (dash has none)",
  c_style_for_statement: "arithmetic for loop (dash has none)",
};

const TOKENS: Record<string, string> = {
  "&>": "&> (dash runs the command in the background, then truncates the file)",
  "&>>": "&>> (dash runs the command in the background)",
  "|&": "|& (dash has none)",
  ";&": ";& (dash has none)",
  ";;&": ";;& (dash has none)",
  "[[": "[[ (dash runs a program of that name)",
};

/** The constructs of a script that dash (or bash in POSIX mode) reads differently from bash. */
export function posixDifferences(parsed: ParsedShell): Array<{ construct: string; text: string }> {
  const out: Array<{ construct: string; text: string }> = [];
  const text = (n: ShellNode) => parsed.source.slice(n.start, n.end);
  const stack: ShellNode[] = [parsed.root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    const construct = n.named ? NODES[n.type] : TOKENS[n.type];
    if (construct !== undefined) out.push({ construct: `${construct}, in a script for sh`, text: text(n) });
    // `{a,b}` reaches the tree as a concatenation of three words: judged whole
    if (n.type === "word" || n.type === "concatenation") {
      const t = text(n);
      if (hasBraceExpression(t))
        out.push({ construct: "brace expansion (dash has none), in a script for sh", text: t });
      if (isPattern(t) && /\[\^/.test(t))
        out.push({ construct: "[^...] (dash reads ^ as itself), in a script for sh", text: t });
      // dash's `.*` matches `.` and `..`, and it does not expand `~` after `=` in an argument
      if (isPattern(t) && t.split("/").some((seg) => seg.startsWith(".")))
        out.push({
          construct: "a pattern for dot files (dash's matches . and ..), in a script for sh",
          text: t,
        });
      if (/^[A-Za-z_][A-Za-z0-9_]*=(~|.*:~)/.test(t))
        out.push({
          construct: "~ after = in an argument (dash leaves it as text), in a script for sh",
          text: t,
        });
    }
    if (n.type === "command" && text(n).startsWith("cd ") && /(^|\/)\.\.(\/|$)/.test(text(n)))
      out.push({ construct: "cd with .. (dash resolves it its own way), in a script for sh", text: text(n) });
    for (const c of n.children) stack.push(c);
  }
  return out;
}
