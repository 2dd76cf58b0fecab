// The hooks a configuration puts in force, and where they run: read by every host, doctor and
// the session's policy (which protects the scripts they run).
import { type Config, perConfig } from "../config/index.js";
import { commandFiles, configuredEntries, HOOK_EVENTS, hookEnvironment, hookKey } from "../hooks/index.js";

/** The configured hooks, every layer's, in the order the layers merge (read on every call). */
export const configuredHooks = perConfig((config) =>
  HOOK_EVENTS.flatMap((event) => configuredEntries(event, config.values[hookKey(event)].contributions ?? [])),
);

/** Where a command hook runs and what environment it gets. */
export const hookPlaceOf = perConfig((config) => ({
  cwd: config.cwd,
  projectDir: config.projectRoot,
  env: hookEnvironment(process.env, config.get("tools.shellEnv") as string[], config.projectRoot),
}));

/**
 * The programs and scripts the configured hooks run, where they can be read from the commands
 * (commandFiles): a hook runs outside the sandbox at every call, so they are protected paths.
 */
export function hookFilesOf(config: Config): string[] {
  const env = {
    CLAUDE_PROJECT_DIR: config.projectRoot,
    TOOLPLANE_PROJECT_DIR: config.projectRoot,
    HOME: process.env.HOME,
  };
  return configuredHooks(config).flatMap((e) =>
    e.run.kind === "command" ? commandFiles(e.run.command, env, config.cwd) : [],
  );
}
