/**
 * A fast path for the frontmatter nearly every skill has: `key: plain text` lines. The `yaml`
 * library costs ~0.1 ms per document, which is most of a 10,000-skill scan; this reads the plain
 * subset in a few microseconds and returns undefined for anything it is not sure to read exactly
 * as YAML would (quotes, block scalars, lists, comments, numbers, booleans, nulls, repeats), so
 * those documents go to `yaml`.
 */
export function parseSimpleMapping(
  yamlText: string,
  firstLine: number,
): { data: Record<string, unknown>; lines: Record<string, number> } | undefined {
  const data: Record<string, unknown> = {};
  const lines: Record<string, number> = {};
  const rows = yamlText.split("\n");
  for (let i = 0; i < rows.length; i++) {
    let row = rows[i]!;
    if (row.endsWith("\r")) row = row.slice(0, -1);
    if (row.trim() === "") continue;
    const m = KEY_LINE.exec(row);
    if (!m) return undefined;
    const key = m[1]!;
    const value = m[2]!.trimEnd();
    if (key in data || !isPlain(value)) return undefined;
    data[key] = value;
    lines[key] = firstLine + i;
  }
  return { data, lines };
}

const KEY_LINE = /^([A-Za-z][A-Za-z0-9_-]*): +(\S.*)$/;
/** Characters that start something other than a plain string. */
const SPECIAL_START = /^[-?:,[\]{}#&*!|>'"%@`0-9+.~]/;
const NOT_A_STRING = /^(true|false|yes|no|on|off|null|y|n)$/i;

function isPlain(value: string): boolean {
  if (value === "" || SPECIAL_START.test(value) || NOT_A_STRING.test(value)) return false;
  // a ": " or " #" inside changes the meaning; tabs and control characters are left to yaml
  return (
    !value.includes(": ") &&
    !value.includes(" #") &&
    !value.endsWith(":") &&
    !/[\t\u0000-\u001f\u007f\uFEFF]/.test(value)
  );
}
