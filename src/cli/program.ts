import { statSync } from "node:fs";
import { Command } from "commander";
import { callCommand } from "./commands/call.js";
import { catalogCommand } from "./commands/catalog.js";
import { configCommand } from "./commands/config.js";
import { doctorCommand } from "./commands/doctor.js";
import { evalCommand } from "./commands/eval.js";
import { inspectCommand } from "./commands/inspect.js";
import { layersCommand } from "./commands/layers.js";
import { mcpCommand } from "./commands/mcp.js";
import { searchCommand } from "./commands/search.js";
import { serveCommand } from "./commands/serve.js";
import { skillsCommand } from "./commands/skills.js";
import { trustCommand } from "./commands/trust.js";
import { UsageError, withGlobalOptions } from "./common.js";
import { VERSION } from "./version.js";

export { VERSION };

/**
 * The CLI program. Each command's definition (name, options, help, examples) lives in its own file
 * under commands/ and imports nothing heavy; its action is loaded from actions/ only when it runs.
 * A new command: a file in commands/ (definition) and one in actions/ (work), listed below.
 */
export function buildProgram(): Command {
  const program = new Command("toolplane")
    .description("the tool layer of an agent harness: what the model sees, and the calls it makes")
    .version(VERSION, "-v, --version", "print the version")
    .helpOption("-h, --help", "show help, with examples")
    // every error is one line on stderr, `toolplane: what went wrong; what to do` (commands added
    // below inherit this)
    .configureOutput({ outputError: (text, write) => write(oneLine(text)) })
    .exitOverride();
  withGlobalOptions(program);
  // a --cwd that does not exist is the person's typo: exit 2 before anything opens
  program.hook("preAction", (_program, action) => {
    const cwd = (action.optsWithGlobals() as { cwd?: unknown }).cwd;
    if (typeof cwd !== "string") return;
    let isDir = false;
    try {
      isDir = statSync(cwd).isDirectory();
    } catch {}
    if (!isDir) throw new UsageError(`--cwd ${cwd}: no such directory; give an existing directory`);
  });
  for (const add of [
    catalogCommand,
    layersCommand,
    searchCommand,
    serveCommand,
    skillsCommand,
    callCommand,
    configCommand,
    evalCommand,
    doctorCommand,
    trustCommand,
    inspectCommand,
    mcpCommand,
  ])
    add(program);
  return program;
}

/** A commander message (`error: unknown option '--x'\n`) in toolplane's one-line form, with the way out. */
export function oneLine(text: string): string {
  const message = text
    .trim()
    .replace(/^error:\s*/, "")
    .replace(/\s*\n\s*\(Did you mean ([^)]*)\)/, " (did you mean $1)")
    .replace(/\s*\n\s*/g, "; ");
  return `toolplane: ${message}; see --help for usage and examples\n`;
}
