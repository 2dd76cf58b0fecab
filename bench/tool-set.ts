import type { ToolProjection } from "../src/declare/project.js";

/** Synthetic tools of varied size (the render and open benches share them). */
export function text(seed: number, length: number): string {
  const words = [
    "read",
    "the",
    "file",
    "search",
    "query",
    "value",
    "returns",
    "list",
    "of",
    "matching",
    "entries",
  ];
  let out = "";
  for (let i = 0; out.length < length; i++) out += `${words[(seed * 7 + i * 3) % words.length]} `;
  return out.slice(0, length).trim();
}

export function makeTool(i: number, salt = ""): ToolProjection {
  const properties: Record<string, unknown> = {
    query: { type: "string", description: text(i, 60), minLength: 1 },
    limit: { type: "integer", minimum: 1, maximum: 100, default: 10 },
  };
  if (i % 3 === 0) properties.mode = { type: "string", enum: ["fast", "full", "auto"] };
  if (i % 5 === 0)
    properties.filter = {
      type: "object",
      properties: { path: { type: "string" }, depth: { type: ["integer", "null"] } },
      required: ["path"],
    };
  if (i % 7 === 0) properties.kind = { oneOf: [{ type: "string" }, { type: "number" }] };
  return {
    name: `tool_${i}`,
    description: `${text(i, 50 + ((i * 37) % 550))}${salt}`,
    parameters: { type: "object", properties, required: ["query"] },
  };
}
