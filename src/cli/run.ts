import { CommanderError } from "commander";
import { ConfigError } from "../config/errors.js";
import { UsageError } from "./common.js";
import { buildProgram } from "./program.js";

/** Exit codes: 0 success, 1 the work failed, 2 bad usage. */
export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  if (argv.length <= 2) {
    process.stderr.write(program.helpInformation());
    return 2;
  }
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander already printed its message (or the help / version text)
      return error.exitCode === 0 ? 0 : 2;
    }
    const usage = error instanceof UsageError || error instanceof ConfigError;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`toolplane: ${message.replace(/\s*\n\s*/g, "; ")}\n`);
    return usage ? 2 : 1;
  }
}
