import type { ModelContent } from "../../declare/types.js";

type Block = { type?: unknown; [key: string]: unknown };

/** MCP content blocks -> model content. Nothing is dropped: an unknown block becomes a visible note. */
export function fromMcpContent(blocks: readonly unknown[]): ModelContent[] {
  return blocks.map((raw) => {
    const block = (raw ?? {}) as Block;
    const str = (v: unknown) => (typeof v === "string" ? v : "");
    switch (block.type) {
      case "text":
        return { type: "text", text: str(block.text) };
      case "image":
        return { type: "image", mimeType: str(block.mimeType), data: str(block.data) };
      case "audio":
        return { type: "file", mimeType: str(block.mimeType), data: str(block.data) };
      case "resource_link": {
        const about = block.description ? ` - ${str(block.description)}` : "";
        return { type: "text", text: `Resource link: ${str(block.name)} <${str(block.uri)}>${about}` };
      }
      case "resource": {
        const res = (block.resource ?? {}) as Block;
        if (typeof res.text === "string")
          return { type: "text", text: `Resource ${str(res.uri)}:\n${res.text}` };
        return {
          type: "file",
          mimeType: str(res.mimeType) || "application/octet-stream",
          data: str(res.blob),
          name: str(res.uri),
        };
      }
      default:
        return { type: "text", text: `[content of type "${String(block.type)}" that toolplane cannot show]` };
    }
  });
}

/** toolplane content -> MCP content blocks (the server side of the same mapping). */
export function toMcpContent(content: readonly ModelContent[]): Array<Record<string, unknown>> {
  return content.map((block) => {
    if (block.type === "text") return { type: "text", text: block.text };
    if (block.type === "image") return { type: "image", mimeType: block.mimeType, data: block.data };
    return {
      type: "resource",
      resource: { uri: `file:///${block.name ?? "attachment"}`, mimeType: block.mimeType, blob: block.data },
    };
  });
}

/** The text of a result's text blocks, for an error message. */
export function textOf(content: readonly ModelContent[]): string {
  return content
    .filter((b): b is { type: "text"; text: string } => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}
