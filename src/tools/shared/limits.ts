/** SPEC: Built-in tools. The run-time keys (src/config/keys.ts) may lower or raise some of these. */
export const READ_MAX_LINES = 2000;
export const READ_MAX_BYTES = 50 * 1024;
export const LINE_MAX_CHARS = 2000;
export const SNIFF_BYTES = 256 * 1024;
export const MEDIA_MAX_BYTES = 20 * 1024 * 1024;
export const GREP_MAX_MATCHES = 250;
export const GREP_LINE_MAX_BYTES = 2000;
export const RAW_MAX_BYTES = 20_000_000;
export const GLOB_MAX_RESULTS = 100;

/** A positive whole number from run-time config, else the SPEC default. */
export function configInt(config: Readonly<Record<string, unknown>>, key: string, fallback: number): number {
  const v = config[key];
  return typeof v === "number" && Number.isInteger(v) && v > 0 ? v : fallback;
}

/** Context lines grep shows around a match at most (-A, -B, -C). */
export const GREP_CONTEXT_MAX = 100;
/** Paths one glob page lists at most (head_limit); the page also stops at its byte budget. */
export const GLOB_MAX_PAGE = 1000;

/**
 * The bytes a page of results may take as rendered: read's 50 KiB, or the host's inline limit
 * when that is lower. A page that fits is never cut or spilled by the host, so the offset it ends
 * with is always the first entry not shown.
 */
export function pageBudget(config: Readonly<Record<string, unknown>>): number {
  return Math.min(READ_MAX_BYTES, configInt(config, "results.inlineMaxBytes", READ_MAX_BYTES));
}
