// The Zod declaration of edit's parameters and value: what types execute and what scripts/prebuilt.ts turns into
// the JSON Schema and the standalone validator in schema.gen.ts (the tool loads only those).
import { z } from "zod";

export const editParameters = z.object({
  path: z.string().min(1).describe("The file to change, relative to the working directory"),
  oldString: z
    .string()
    .min(1)
    .describe("The exact text to replace, as the file holds it (whitespace included, no line numbers)"),
  newString: z.string().describe("The text to put in its place"),
  replaceAll: z
    .boolean()
    .optional()
    .describe("Replace every occurrence (default: oldString must occur exactly once)"),
});
export type EditArgs = z.output<typeof editParameters>;

export const editOutput = z.object({
  path: z.string(),
  replacements: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
  /** Unified diff of the change; empty when it was too costly to compute. */
  diff: z.string(),
});
export type EditValue = z.output<typeof editOutput>;
