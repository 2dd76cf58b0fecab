// The Zod declaration of glob's parameters and value: what types execute and what scripts/prebuilt.ts turns into
// the JSON Schema and the standalone validator in schema.gen.ts (the tool loads only those).
import { z } from "zod";
import { withheldSchema } from "../search/withheld-schema.js";
import { GLOB_MAX_PAGE, GLOB_MAX_RESULTS } from "../shared/limits.js";

export const globParameters = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'Glob of file paths, gitignore style: "*.ts" matches at any depth, "src/**/*.test.ts" from the folder searched',
    ),
  path: z.string().min(1).optional().describe("Folder to search in; default: the working directory"),
  head_limit: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(`Most paths per page (default ${GLOB_MAX_RESULTS}, at most ${GLOB_MAX_PAGE})`),
  offset: z.number().int().min(0).optional().describe("Paths to skip: the offset a cut page ends with"),
});
export type GlobArgs = z.output<typeof globParameters>;

export const globOutput = z.object({
  pattern: z.string(),
  /** The page's paths, newest first (modification time), ties by path. */
  files: z.array(z.string()),
  /** Index (from 0) of the page's first path in the whole order. */
  offset: z.number().int(),
  /** Matching files in all that may be listed (permission-denied ones are not). */
  total: z.number().int(),
  /** Matching files after this page, counted but not listed. */
  more: z.number().int(),
  /** Only when more follow: the offset of the next page. */
  nextOffset: z.number().int().optional(),
  /** Only when a listed name is not UTF-8: its bytes (base64), keyed by the shown, escaped path. */
  pathBytes: z.record(z.string(), z.string()).optional(),
  /** Only when matching files were left out by the permission rules: how many, never which. */
  withheld: withheldSchema.optional(),
});
export type GlobValue = z.output<typeof globOutput>;
