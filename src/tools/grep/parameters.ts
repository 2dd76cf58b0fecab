import { z } from "zod";
import { GREP_CONTEXT_MAX } from "../shared/limits.js";
import { GREP_MODES } from "./value.js";

const contextLines = (side: string) =>
  z
    .number()
    .int()
    .min(0)
    .max(GREP_CONTEXT_MAX)
    .optional()
    .describe(`Lines to show ${side} each match (content mode)`);

// Parameter names: the ones Claude Code's Grep uses (output_mode, head_limit, offset, type,
// multiline, -A, -B, -C), which models are trained to send, in the snake_case grep already had
// (ignore_case, literal, kept as they were). See docs/tools.md.
export const grepParameters = z.object({
  pattern: z.string().min(1).describe("Regular expression (Rust regex syntax) to search file contents for"),
  path: z.string().min(1).optional().describe("File or folder to search in; default: the working directory"),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.rs"'),
  type: z
    .string()
    .min(1)
    .optional()
    .describe('Only search files of this ripgrep type, e.g. "js", "py", "rust", "go"'),
  output_mode: z
    .enum(GREP_MODES)
    .optional()
    .describe(
      '"files_with_matches" (default): the matching files; "content": the matching lines; "count": matching lines per file',
    ),
  "-A": contextLines("after"),
  "-B": contextLines("before"),
  "-C": contextLines("before and after"),
  ignore_case: z.boolean().optional().describe("Match letters of either case (default: case-sensitive)"),
  literal: z.boolean().optional().describe("Treat the pattern as plain text, not a regex"),
  multiline: z
    .boolean()
    .optional()
    .describe("Let matches span lines: . also matches newlines (rg -U --multiline-dotall)"),
  head_limit: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Most entries (files, lines or counts) per page; 0 or unset: as many as fit"),
  offset: z.number().int().min(0).optional().describe("Entries to skip: the offset a cut page ends with"),
});
export type GrepArgs = z.output<typeof grepParameters>;
