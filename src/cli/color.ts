/** Where colour may go: a stream that may be a terminal. */
export interface ColorStream {
  isTTY?: boolean;
}

/**
 * Whether to colour output for people, as Node and most CLIs decide it: FORCE_COLOR (other than
 * "0" or "false") turns it on even through a pipe; NO_COLOR (non-empty, https://no-color.org)
 * or TERM=dumb turns it off; otherwise only a terminal gets colour.
 */
export function colorEnabled(
  stream: ColorStream = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return stream.isTTY === true;
}

/** Green "ok" and red "FAIL" (or any pass/fail words), plain when colour is off. */
export function verdicts(stream: ColorStream = process.stdout, env: NodeJS.ProcessEnv = process.env) {
  const on = colorEnabled(stream, env);
  const wrap = (open: number, text: string) => (on ? `\x1b[${open}m${text}\x1b[39m` : text);
  return {
    pass: (text: string) => wrap(32, text),
    fail: (text: string) => wrap(31, text),
  };
}
