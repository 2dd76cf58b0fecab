// The Zod declaration of bash's parameters and value: what types execute and what scripts/prebuilt.ts turns into
// the JSON Schema and the standalone validator in schema.gen.ts (the tool loads only those).
import { z } from "zod";

export const bashParameters = z.object({
  command: z.string().min(1).describe("The command line to run with bash"),
  description: z.string().optional().describe("What the command does, in a few words (shown to the user)"),
});
export type BashArgs = z.output<typeof bashParameters>;

export const bashOutput = z.object({
  /** null when a signal ended it. */
  exitCode: z.number().int().nullable(),
  signal: z.string().optional(),
  /** The shell's directory after the command, relative to the workspace ("." for its root). */
  cwd: z.string(),
  /** Set when the command left the workspace: the next command starts back here. */
  cwdReset: z.boolean().optional(),
  sandbox: z.enum(["off", "read-only", "workspace-write"]),
  /** When the output shows a write refused: what the sandbox kept read-only (relative paths; "." when the whole run was read-only). */
  readOnly: z.array(z.string()).optional(),
  /** Bytes of output the command wrote (stdout and stderr). */
  outputBytes: z.number().int(),
  /** Only when no host stream was given (a direct call): the output, cut at 1 MiB. */
  output: z.string().optional(),
});
export type BashValue = z.output<typeof bashOutput>;
