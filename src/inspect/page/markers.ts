/**
 * The visible cut markers in a tool result, for highlighting. The result's `truncated`,
 * `nextOffset` and `spillPath` say whether anything was cut; these patterns only find where the
 * text says so (the host's and the built-in tools' markers, src/execute/limits.ts, src/tools).
 */
const MARKERS = [
  String.raw` ?… ?\[line cut:[^\]\n]*\]`,
  String.raw`\[(?:output cut|output too large|output stopped|showing)[^\]\n]*\]`,
  String.raw`…\[cut\]`,
  String.raw`\((?:lines|entries) \d+-\d+[^)\n]*more follow[^)\n]*\)`,
  String.raw`\(\d+ lines? cut[^)\n]*\)`,
  String.raw`\(first \d+ of \d+ matching[^)\n]*\)`,
  String.raw`\(\d+ more files match[^)\n]*\)`,
];
const PATTERN = new RegExp(MARKERS.join("|"), "g");

export interface Segment {
  text: string;
  cut: boolean;
}

/** The text split into plain runs and marker runs, in order; joined, they are the text again. */
export function cutSegments(text: string): Segment[] {
  const out: Segment[] = [];
  let at = 0;
  for (const m of text.matchAll(PATTERN)) {
    const start = m.index ?? 0;
    if (start > at) out.push({ text: text.slice(at, start), cut: false });
    out.push({ text: m[0], cut: true });
    at = start + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), cut: false });
  return out;
}
