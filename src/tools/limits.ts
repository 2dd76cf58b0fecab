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
