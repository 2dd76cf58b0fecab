import { defineTool } from "../../declare/index.js";
import type { ToolContext } from "../../declare/types.js";
import { type ReadValue, readPath } from "./read-path.js";
import { renderRead } from "./render.js";
import { readOutput, readParameters } from "./schema.gen.js";
import type { ReadArgs } from "./schema.js";

export type { ReadValue } from "./read-path.js";
export { readPath } from "./read-path.js";
export { renderRead } from "./render.js";

export const READ_DESCRIPTION =
  // Qualitative on purpose: limits that config can change never go into a description.
  "Read a text file or list a folder, by pages of numbered lines. A long file comes back one " +
  "page at a time; a cut page ends with the offset to continue from. Images and PDFs come back " +
  "as attachments. Not for searching: use grep for content and glob for file names.";

export function readTool() {
  return defineTool({
    name: "read",
    description: READ_DESCRIPTION,
    parameters: readParameters,
    output: { schema: readOutput, render: renderRead },
    execute: (args: ReadArgs, ctx: ToolContext): Promise<ReadValue> => readPath(args, ctx),
    concurrencySafe: true,
    // a page is already bounded; spilling it would only invite read -> spill -> read loops
    spill: false,
    permission: { action: "read", patterns: (a) => [a.path], paths: (a) => [a.path] },
    annotations: { title: "Read", readOnlyHint: true, openWorldHint: false },
    display: { title: "Read", summarize: (a) => `read ${a.path}${a.offset ? `:${a.offset}` : ""}` },
  });
}
