/**
 * Checks on the command line's characters, before any parse: where the tree-sitter grammar and
 * bash read the same characters differently, the construct is outside the subset (the call asks),
 * because a classifier that trusts a parse bash does not share can be walked past.
 */
export function lexicalConstructs(source: string): Array<{ construct: string; text: string }> {
  const out: Array<{ construct: string; text: string }> = [];
  const control = /[\x00-\x08\x0b-\x1f\x7f]/.exec(source);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    out.push({
      construct: `control character U+${code} in the command line`,
      text: around(source, control.index),
    });
  }
  // bash splits words only at ASCII blanks: another space character the grammar may see as one
  const space = /[\u0085\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/.exec(source);
  if (space) {
    const code = space[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    out.push({
      construct: `Unicode space U+${code} (bash does not split words there)`,
      text: around(source, space.index),
    });
  }
  // a line continuation inside a word joins two words bash sees as one (`r\<newline>m` is rm)
  for (const m of source.matchAll(/\\\r?\n/g)) {
    const before = m.index === 0 ? " " : source[m.index - 1]!;
    const after = source[m.index + m[0].length] ?? " ";
    if (!/\s/.test(before) || !/\s/.test(after)) {
      out.push({
        construct: "line continuation (backslash-newline) inside a word",
        text: around(source, m.index),
      });
      break;
    }
  }
  if (source.includes("`")) {
    out.push({
      construct: "backquote command substitution (write $(...) instead)",
      text: around(source, source.indexOf("`")),
    });
  }
  return out;
}

function around(source: string, at: number): string {
  return JSON.stringify(source.slice(Math.max(0, at - 20), at + 20));
}
