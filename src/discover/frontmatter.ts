import { createRequire } from "node:module";

/** yaml, loaded with the first frontmatter parsed: a directory without skills never pays for it. */
let yaml: typeof import("yaml") | undefined;
const loadYaml = () => (yaml ??= createRequire(import.meta.url)("yaml") as typeof import("yaml"));

import { parseSimpleMapping } from "./simple-yaml.js";

export type FrontmatterResult =
  | {
      ok: true;
      data: Record<string, unknown>;
      /** Offset of the body in the text. */
      bodyStart: number;
      /** File line (1-based) of each top-level key, for messages. */
      lines: Record<string, number>;
    }
  | { ok: false; error: string };

const BOM = "\uFEFF";

/**
 * Most YAML aliases a frontmatter may expand. An alias bomb (anchors of anchors) grows
 * exponentially when turned into data; frontmatter has no use for more than a few aliases.
 */
export const MAX_ALIASES = 50;

/**
 * Splits `---\n<yaml>\n---\n<body>` and parses the YAML. Errors carry the file's line and column
 * (the opening `---` is line 1). A BOM and CRLF line endings are accepted.
 */
export function parseFrontmatter(text: string): FrontmatterResult {
  const start = text.startsWith(BOM) ? 1 : 0;
  const open = /^---[ \t]*\r?\n/.exec(text.slice(start));
  if (!open) {
    const hint = text.slice(start).trimStart().startsWith("---")
      ? "the opening --- must be the very first line"
      : "the file must start with a --- line, then YAML with name and description, then a --- line";
    return { ok: false, error: `frontmatter: line 1: no frontmatter (${hint})` };
  }
  const yamlStart = start + open[0].length;
  const rest = text.slice(yamlStart);
  const m = /(^|\n)---[ \t]*(\r?\n|$)/.exec(rest);
  if (!m) {
    return {
      ok: false,
      error:
        "frontmatter: line 1: the frontmatter opened with --- is never closed (add a --- line after the YAML)",
    };
  }
  const yamlText = rest.slice(0, m.index + (m[1] ? 1 : 0));
  const bodyStart = yamlStart + m.index + m[0].length;
  const simple = parseSimpleMapping(yamlText, lineOf(text, yamlStart));
  if (simple) return { ok: true, data: simple.data, bodyStart, lines: simple.lines };
  const { isMap, isScalar, parseDocument } = loadYaml();
  const doc = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const at = Math.min(e.pos[0], yamlText.length);
    const line = lineOf(text, yamlStart) + lineOf(yamlText, at) - 1;
    const column = at - (yamlText.lastIndexOf("\n", at - 1) + 1) + 1;
    const where = `line ${line}, column ${column}`;
    const first = e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    return { ok: false, error: `frontmatter: ${where}: invalid YAML: ${first}` };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    const why = /alias/i.test((error as Error).message)
      ? `uses YAML aliases too much (more than ${MAX_ALIASES} expansions, as an alias bomb does); write the values out`
      : `cannot be read as data: ${(error as Error).message}`;
    return { ok: false, error: `frontmatter: line 2: ${why}` };
  }
  if (data === null || data === undefined) return { ok: true, data: {}, bodyStart, lines: {} };
  if (typeof data !== "object" || Array.isArray(data)) {
    const kind = Array.isArray(data) ? "a list" : `a ${typeof data}`;
    return {
      ok: false,
      error: `frontmatter: line 2: must be a YAML mapping (key: value lines), found ${kind}`,
    };
  }
  const firstLine = lineOf(text, yamlStart);
  const lines: Record<string, number> = {};
  if (isMap(doc.contents)) {
    for (const item of doc.contents.items) {
      const key = isScalar(item.key) ? String(item.key.value) : undefined;
      const at = isScalar(item.key) ? item.key.range?.[0] : undefined;
      if (key !== undefined && at !== undefined) lines[key] = firstLine + lineOf(yamlText, at) - 1;
    }
  }
  return { ok: true, data: data as Record<string, unknown>, bodyStart, lines };
}

/** The body after the frontmatter, or the whole text when there is none. */
export function skillBody(text: string): string {
  const parsed = parseFrontmatter(text);
  const body = parsed.ok ? text.slice(parsed.bodyStart) : text.replace(/^\uFEFF/, "");
  return body.replace(/^(\r?\n)+/, "");
}

/** 1-based line of an offset. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}
