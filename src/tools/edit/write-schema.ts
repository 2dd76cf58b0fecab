// The Zod declaration of write's parameters and value: what types execute and what scripts/prebuilt.ts turns into
// the JSON Schema and the standalone validator in schema.gen.ts (the tool loads only those).
import { z } from "zod";

export const writeParameters = z.object({
  path: z.string().min(1).describe("The file to write, relative to the working directory"),
  content: z.string().describe("The whole new content of the file"),
});
export type WriteArgs = z.output<typeof writeParameters>;

export const writeOutput = z.object({
  path: z.string(),
  created: z.boolean(),
  bytes: z.number().int(),
  lines: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
  /** Unified diff against the old content; empty for a new file (or when too costly). */
  diff: z.string(),
});
export type WriteValue = z.output<typeof writeOutput>;
