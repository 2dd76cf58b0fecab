import { z } from "zod";
import { withheldSchema } from "../search/withheld-schema.js";

/** One line shown beside a match: a line before or after it, or a further line a match spans. */
const grepRow = z.object({
  line: z.number().int(),
  text: z.string(),
  /** Cut to fit the line limits; the text ends with the marker that says how much is missing. */
  cut: z.boolean().optional(),
});

const grepMatch = z.object({
  /** The path; a name that is not UTF-8 is shown with \xHH escapes (src/tools/shared/raw-path.ts). */
  path: z.string(),
  /** Only for a path that is not UTF-8: its bytes, base64 (as rg --json gives them). */
  pathBytes: z.string().optional(),
  /** The match's (first) line. */
  line: z.number().int(),
  text: z.string(),
  cut: z.boolean().optional(),
  /** multiline: the further lines the match spans. */
  continued: z.array(grepRow).optional(),
  /** Context lines (-B, -C) before the match, each shown once in the whole page. */
  before: z.array(grepRow).optional(),
  /** Context lines (-A, -C) after the match, each shown once in the whole page. */
  after: z.array(grepRow).optional(),
  /** Lines of the match (multiline) and context left out so the page fits the result limit. */
  omitted: z.object({ lines: z.number().int(), context: z.number().int() }).optional(),
});

const grepFile = z.object({
  path: z.string(),
  pathBytes: z.string().optional(),
  /** Matching lines in the file (matches, with multiline). */
  count: z.number().int(),
});

export const GREP_MODES = ["files_with_matches", "content", "count"] as const;
export type GrepMode = (typeof GREP_MODES)[number];

export const grepOutput = z.object({
  pattern: z.string(),
  mode: z.enum(GREP_MODES),
  /** What an entry of `content` counts: matching lines, or matches when multiline. */
  unit: z.enum(["lines", "matches"]),
  /** content: the page's matches, by path then line. */
  matches: z.array(grepMatch).optional(),
  /** files_with_matches and count: the page's files, by path. */
  files: z.array(grepFile).optional(),
  /** content with context lines: how many were asked for before and after each match. */
  context: z.object({ before: z.number().int(), after: z.number().int() }).optional(),
  /** Index (from 0) of the page's first entry: matches in content mode, files otherwise. */
  offset: z.number().int(),
  /** Index after the page's last entry. */
  end: z.number().int(),
  /** Entries in all (what offsets count): totalMatches in content mode, filesWithMatches otherwise. */
  totalEntries: z.number().int(),
  /** Only when more follow: the offset of the next page. */
  nextOffset: z.number().int().optional(),
  /** Matching lines (matches, with multiline) in every file that may be shown, on this page or not. */
  totalMatches: z.number().int(),
  filesWithMatches: z.number().int(),
  /** Only when matching files were left out by the permission rules: how many, never which. */
  withheld: withheldSchema.optional(),
});
export type GrepValue = z.output<typeof grepOutput>;
export type GrepMatch = z.output<typeof grepMatch>;
export type GrepRow = z.output<typeof grepRow>;
export type GrepFile = z.output<typeof grepFile>;
