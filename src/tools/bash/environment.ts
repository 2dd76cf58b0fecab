/**
 * The environment a command gets is built, not inherited: the names on this list (and those the
 * user adds with `tools.shellEnv`) pass; everything else stays with toolplane, its own secrets
 * (`TOOLPLANE_*`, the serve token among them) always. An API key in the harness's environment is
 * not the command's to print.
 */
export const SHELL_ENV_ALLOWED: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "LC_*",
  "TERM",
  "COLORTERM",
  "TZ",
  "NO_COLOR",
  "FORCE_COLOR",
  "CI",
  // where the user's toolchains live: paths, not secrets, and commands fail without them
  "JAVA_HOME",
  "GOPATH",
  "GOROOT",
  "CARGO_HOME",
  "RUSTUP_HOME",
  "PYENV_ROOT",
  "NVM_DIR",
  "VIRTUAL_ENV",
];

/** Never passed, whatever tools.shellEnv says: they change what bash runs before the line, or are toolplane's. */
const NEVER =
  /^(TOOLPLANE_\w*|BASH_FUNC_.*|BASH_ENV|ENV|CDPATH|GLOBIGNORE|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|IFS|POSIXLY_CORRECT)$/;

/** `NAME` or `PREFIX_*`. */
function matches(name: string, pattern: string): boolean {
  return pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

export function shellEnvironment(from: NodeJS.ProcessEnv, extra: readonly string[] = []): NodeJS.ProcessEnv {
  const allowed = [...SHELL_ENV_ALLOWED, ...extra];
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(from)) {
    if (value === undefined || NEVER.test(name)) continue;
    if (allowed.some((p) => matches(name, p))) env[name] = value;
  }
  return env;
}
