import { shellEnvironment } from "../tools/bash/environment.js";

/**
 * A command hook's environment, built as a bash command's is (src/tools/bash/environment.ts): the
 * allowed names and `tools.shellEnv` pass, toolplane's own `TOOLPLANE_*` secrets and everything
 * else (a harness's API keys) stay behind. Then the project folder, under Claude Code's name and
 * toolplane's, so a script written for Claude Code finds `$CLAUDE_PROJECT_DIR/.claude/hooks/...`.
 */
export function hookEnvironment(
  from: NodeJS.ProcessEnv,
  shellEnv: readonly string[],
  projectDir: string,
): NodeJS.ProcessEnv {
  return {
    ...shellEnvironment(from, shellEnv),
    CLAUDE_PROJECT_DIR: projectDir,
    TOOLPLANE_PROJECT_DIR: projectDir,
  };
}
