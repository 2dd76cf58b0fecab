import type { ModelContent, RenderedOutput } from "../../declare/types.js";
import { LINE_MAX_CHARS } from "../limits.js";
import type { ReadValue } from "./read-path.js";

/** Numbered lines (`N\ttext`), then one line saying where the page ends and how to go on. */
export function renderRead(value: ReadValue): RenderedOutput {
  if (value.kind === "media") {
    const label = `${value.path} (${value.mimeType}, ${value.bytes} bytes)`;
    const block: ModelContent = value.mimeType.startsWith("image/")
      ? { type: "image", mimeType: value.mimeType, data: value.data }
      : { type: "file", mimeType: value.mimeType, data: value.data, name: value.path };
    return { content: [{ type: "text", text: label }, block] };
  }
  const rows = value.kind === "file" ? value.lines : value.entries;
  const body = rows.map((row, i) => `${value.offset + i}\t${row}`);
  const first = value.offset;
  const last = value.offset + rows.length - 1;
  const unit = value.kind === "file" ? "lines" : "entries";
  let footer: string;
  if (value.nextOffset !== undefined) {
    const of = value.kind === "directory" ? ` of ${value.totalEntries}` : "";
    footer = `(${unit} ${first}-${last}${of} shown; more follow: read again with offset=${value.nextOffset})`;
  } else if (rows.length === 0) {
    footer = value.kind === "file" ? "(empty file)" : "(empty folder)";
  } else {
    const noNewline = value.kind === "file" && value.endsWithNewline === false ? ", no newline at end" : "";
    footer = `(end of ${value.kind === "file" ? "file" : "folder"}: ${last} ${unit}${noNewline})`;
  }
  if (value.kind === "file" && value.cutLines.length > 0) {
    footer += `\n(${value.cutLines.length} line${value.cutLines.length === 1 ? "" : "s"} cut at ${LINE_MAX_CHARS} characters; grep can search inside them)`;
  }
  const text = [...body, footer].join("\n");
  const content: ModelContent[] = [{ type: "text", text }];
  if (value.nextOffset !== undefined) return { content, truncated: true, nextOffset: value.nextOffset };
  return value.kind === "file" && value.cutLines.length > 0 ? { content, truncated: true } : { content };
}
