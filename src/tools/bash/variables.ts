/**
 * Which variable names a command line may set without a request. An assignment changes what
 * later expansions see and, for a name in the environment, what every later program sees:
 * `PAGER`, `GIT_*`, `LD_PRELOAD` or `XDG_CONFIG_HOME` make an allowed read-only command run code.
 */

/** Names any program may be given: they change formatting, never which code runs or where files are. */
const HARMLESS =
  /^(LANGUAGE|LC_ALL|LC_[A-Z]+|LANG|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|CI|NODE_ENV|RUST_BACKTRACE|RUST_LOG|PYTHONUNBUFFERED|PYTHONDONTWRITEBYTECODE)$/;

/** Variables bash itself reads (prompt, trace, paths, options): setting one changes what the shell does. */
const BASH_SPECIAL =
  /^(BASH\w*|ENV|IFS|PS[0-4]|PROMPT_COMMAND|PROMPT_DIRTRIM|SHELLOPTS|CDPATH|GLOBIGNORE|GLOBSORT|HIST\w*|HOME|PATH|OLDPWD|PWD|OPTIND|OPTARG|OPTERR|FUNCNEST|TMOUT|EXECIGNORE|POSIXLY_CORRECT|SHELL|TMPDIR|COMP\w*|MAIL\w*|RANDOM|SRANDOM|SECONDS|LINENO|TIMEFORMAT|INPUTRC|FIGNORE|HOSTFILE|IGNOREEOF|READLINE\w*|TERM|TERMINFO\w*|COLUMNS|LINES|auto_resume|histchars|EPOCH\w*|UID|EUID|PPID|GROUPS|DIRSTACK|FUNCNAME|PIPESTATUS|REPLY|SHLVL|HOSTNAME|HOSTTYPE|MACHTYPE|OSTYPE|_)$/;

/** Variables that programs read to decide which code to run or which files to trust. */
const PROGRAM_HOOKS =
  /^(LD_\w+|DYLD_\w+|GIT_\w+|PAGER|GIT_PAGER|MANPAGER|LESS\w*|EDITOR|VISUAL|BROWSER|XDG_\w+|RIPGREP_CONFIG_PATH|GREP_\w+|NODE_\w+|NPM_\w+|npm_\w+|PYTHON\w*|PERL\w*|RUBY\w*|GEM_\w+|JAVA_\w+|_JAVA_\w+|SSH_\w+|GNUPGHOME|CURL_\w+|WGETRC|http_proxy|https_proxy|ftp_proxy|all_proxy|no_proxy|HTTPS?_PROXY|ALL_PROXY|NO_PROXY|TERMCAP|MAGIC|POSIXLY_CORRECT|TAR_\w+|ZIPOPT|UNZIP\w*|SED_\w+)$/;

/** Why setting `name` needs a request, or undefined when it may be set freely. */
export function assignmentRisk(
  name: string,
  exported: ReadonlySet<string>,
  forCommand = false,
): string | undefined {
  if (HARMLESS.test(name)) return undefined;
  if (BASH_SPECIAL.test(name)) return `assignment to ${name}, a variable bash itself reads`;
  if (PROGRAM_HOOKS.test(name)) return `assignment to ${name}, which changes what programs run or trust`;
  // in a command's own environment, any other name is one the program may read: not modelled
  if (forCommand) return `environment variable ${name} for the command (not one known to be harmless)`;
  if (exported.has(name))
    return `assignment to ${name}, which is in the environment every later program sees`;
  return undefined;
}
