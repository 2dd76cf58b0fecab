import { Command } from "commander";
import { callCommand } from "./commands/call.js";
import { catalogCommand } from "./commands/catalog.js";
import { configCommand } from "./commands/config.js";
import { doctorCommand } from "./commands/doctor.js";
import { evalCommand } from "./commands/eval.js";
import { layersCommand } from "./commands/layers.js";
import { searchCommand } from "./commands/search.js";
import { serveCommand } from "./commands/serve.js";
import { skillsCommand } from "./commands/skills.js";
import { trustCommand } from "./commands/trust.js";

export const VERSION = "0.1.0";

/** The CLI program; each command lives in its own file under commands/. */
export function buildProgram(): Command {
  const program = new Command("toolplane")
    .description("the tool layer of an agent harness: what the model sees, and the calls it makes")
    .version(VERSION)
    .showHelpAfterError("(run with --help for usage and examples)")
    .exitOverride();
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
  ])
    add(program);
  return program;
}
