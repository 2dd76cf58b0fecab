// The Zod declaration of read's parameters and value: what types execute and what scripts/prebuilt.ts turns into
// the JSON Schema and the standalone validator in schema.gen.ts (the tool loads only those).
import { z } from "zod";
import { READ_MAX_LINES } from "../shared/limits.js";
import type { ReadValue } from "./read-path.js";

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
export type ReadArgs = z.output<typeof readParameters>;

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
