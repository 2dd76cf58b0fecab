import type { ModelContent } from "../../declare/types.js";

type Block = { type?: unknown; [key: string]: unknown };

/** A server's type name longer than this is cut in the note that replaces its block. */
const TYPE_NAME_MAX = 40;

/**
 * MCP content blocks -> model content. Each block is checked on its own: a valid block is kept
 * whatever its neighbours are, and an unknown or malformed block becomes a short visible note (never
 * dropped, never a dump of the server's JSON). Only the fields toolplane uses are checked: the
 * SDK's schema would also reject a block for, say, a malformed `annotations.lastModified`.
 */
export function fromMcpContent(blocks: readonly unknown[]): ModelContent[] {
  return blocks.map(fromBlock);
}

function fromBlock(raw: unknown): ModelContent {
  const block = (raw !== null && typeof raw === "object" && !Array.isArray(raw) ? raw : {}) as Block;
  const str = (v: unknown) => typeof v === "string";
  switch (block.type) {
    case "text":
      if (str(block.text)) return { type: "text", text: block.text as string };
      return malformed("text", "no text");
    case "image":
    case "audio": {
      if (!str(block.data) || !str(block.mimeType)) return malformed(block.type, "no data or mimeType");
      const data = block.data as string;
      const mimeType = block.mimeType as string;
      return block.type === "image" ? { type: "image", mimeType, data } : { type: "file", mimeType, data };
    }
    case "resource_link": {
      if (!str(block.uri)) return malformed("resource_link", "no uri");
      const about = str(block.description) && block.description !== "" ? ` - ${block.description}` : "";
      const name = str(block.name) ? (block.name as string) : (block.uri as string);
      return { type: "text", text: `Resource link: ${name} <${block.uri as string}>${about}` };
    }
    case "resource": {
      const res = (block.resource ?? {}) as Block;
      if (!str(res.uri)) return malformed("resource", "no resource.uri");
      if (str(res.text))
        return { type: "text", text: `Resource ${res.uri as string}:\n${res.text as string}` };
      if (!str(res.blob)) return malformed("resource", "neither resource.text nor resource.blob");
      return {
        type: "file",
        mimeType:
          str(res.mimeType) && res.mimeType !== "" ? (res.mimeType as string) : "application/octet-stream",
        data: res.blob as string,
        name: res.uri as string,
      };
    }
    default:
      return { type: "text", text: `[content of type ${typeName(block.type)} that toolplane cannot show]` };
  }
}

function malformed(type: string, why: string): ModelContent {
  return { type: "text", text: `[a malformed "${type}" content block (${why}) that toolplane cannot show]` };
}

function typeName(type: unknown): string {
  if (type === undefined) return "(none)";
  const text = typeof type === "string" ? type : (JSON.stringify(type) ?? String(type));
  const cut = text.length > TYPE_NAME_MAX ? `${text.slice(0, TYPE_NAME_MAX)}…` : text;
  return JSON.stringify(cut);
}

/** The text of a result's text blocks, for an error message. */
export function textOf(content: readonly ModelContent[]): string {
  return content
    .filter((b): b is { type: "text"; text: string } => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}
