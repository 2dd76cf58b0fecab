import { z } from "zod";
import { defineTool } from "../../declare/index.js";
import type { ToolContext } from "../../declare/types.js";
import { READ_MAX_LINES } from "../shared/limits.js";
import { type ReadValue, readPath } from "./read-path.js";
import { renderRead } from "./render.js";

export type { ReadValue } from "./read-path.js";
export { readPath } from "./read-path.js";
export { renderRead } from "./render.js";

export const readParameters = z.object({
  path: z.string().min(1).describe("File or folder to read, relative to the working directory"),
  offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("1-based line (or entry) to start at; use the nextOffset a cut page gives"),
  limit: z
    .number()
    .int()
    .min(1)
    .max(READ_MAX_LINES)
    .optional()
    .describe(`Most lines (or entries) to return, up to ${READ_MAX_LINES}`),
});
type ReadArgs = z.output<typeof readParameters>;

const textPage = z.object({
  kind: z.literal("file"),
  path: z.string(),
  encoding: z.enum(["utf-8", "utf-8-bom", "utf-16le", "utf-16be", "latin1"]),
  offset: z.number().int(),
  lines: z.array(z.string()),
  /** Line numbers cut at the line limit. */
  cutLines: z.array(z.number().int()),
  /** Line numbers that ended in CRLF. */
  crlfLines: z.array(z.number().int()),
  /** On the last page: whether the file ends with a newline. */
  endsWithNewline: z.boolean().optional(),
  totalLines: z.number().int().optional(),
  nextOffset: z.number().int().optional(),
});
const directoryPage = z.object({
  kind: z.literal("directory"),
  path: z.string(),
  offset: z.number().int(),
  entries: z.array(z.string()),
  totalEntries: z.number().int(),
  nextOffset: z.number().int().optional(),
  /** Only when entries were left out because the permission rules deny them: how many. */
  withheld: z.number().int().optional(),
});
const media = z.object({
  kind: z.literal("media"),
  path: z.string(),
  mimeType: z.string(),
  bytes: z.number().int(),
  /** base64 */
  data: z.string(),
});
export const readOutput = z.discriminatedUnion("kind", [textPage, directoryPage, media]);

// the schema and the reader's TypeScript types must describe the same value
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: Same<z.output<typeof readOutput>, ReadValue> = true;
void schemaMatchesType;

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
