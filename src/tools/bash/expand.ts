import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type Picomatch from "picomatch";

// loaded when a glob is first expanded, not with the analysis: requiring it was ~5-7 ms of a
// process's first bash call, most of whose lines name no glob
let picomatch: typeof Picomatch | undefined;
const loadPicomatch = () => (picomatch ??= createRequire(import.meta.url)("picomatch") as typeof Picomatch);

/** A glob that names more files than this asks instead of listing each path. */
export const GLOB_MAX_MATCHES = 1000;

/** Brace expansion (textual, as bash does it first), then each word's file-name expansion. */
export function expandWords(pattern: string, cwd: string): string[] | undefined {
  const words = expandBraces(pattern, GLOB_MAX_MATCHES);
  if (words === undefined) return undefined;
  const out: string[] = [];
  for (const w of words) {
    const names = /[*?[]/.test(w) ? expandGlob(w, cwd) : [w];
    if (names === undefined) return undefined;
    out.push(...names);
    if (out.length > GLOB_MAX_MATCHES) return undefined;
  }
  return out;
}

/** `a{b,c}d` -> abd, acd; `x{1..3}` -> x1, x2, x3. Hand-written: picomatch matches braces but does not list them. */
export function expandBraces(word: string, max: number): string[] | undefined {
  const open = word.indexOf("{");
  if (open < 0) return [word];
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let i = open; i < word.length; i++) {
    const ch = word[i];
    if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) {
      close = i;
      break;
    } else if (ch === "," && depth === 1) commas.push(i);
  }
  if (close < 0) return [word];
  const head = word.slice(0, open);
  const body = word.slice(open + 1, close);
  const tail = word.slice(close + 1);
  let options: string[];
  const range = /^(-?\d+)\.\.(-?\d+)$/.exec(body);
  if (commas.length > 0) {
    const cuts = [open, ...commas, close];
    options = cuts.slice(0, -1).map((c, i) => word.slice(c + 1, cuts[i + 1]));
  } else if (range) {
    const [a, b] = [Number(range[1]), Number(range[2])];
    if (Math.abs(b - a) >= max) return undefined;
    options = [];
    for (let n = a; a <= b ? n <= b : n >= b; n += a <= b ? 1 : -1) options.push(String(n));
  } else {
    // not an expansion (`{}` or `{x}`): the rest of the word may still hold one
    const rest = expandBraces(tail, max);
    return rest?.map((r) => `${head}{${body}}${r}`);
  }
  const out: string[] = [];
  for (const o of options) {
    const more = expandBraces(head + o + tail, max);
    if (more === undefined) return undefined;
    out.push(...more);
    if (out.length > max) return undefined;
  }
  return out;
}

/**
 * The file names a glob names now, as bash would expand it (no dotfiles unless the pattern starts
 * with a dot; a pattern that matches nothing stays as written). undefined past GLOB_MAX_MATCHES.
 */
export function expandGlob(pattern: string, cwd: string): string[] | undefined {
  const absolute = pattern.startsWith("/");
  const parts = pattern.split("/").filter((p, i) => p !== "" || i === 0);
  let current: string[] = [absolute ? "/" : ""];
  for (const part of absolute ? parts.slice(1) : parts) {
    if (!/[*?[{]/.test(part)) {
      current = current.map((c) => (c === "" ? part : c === "/" ? `/${part}` : `${c}/${part}`));
      continue;
    }
    const match = loadPicomatch()(part, { dot: part.startsWith(".") });
    const next: string[] = [];
    for (const dir of current) {
      let names: string[];
      try {
        names = readdirSync(path.resolve(cwd, dir === "" ? "." : dir));
      } catch {
        continue;
      }
      for (const n of names.sort()) {
        if (!match(n)) continue;
        next.push(dir === "" ? n : dir === "/" ? `/${n}` : `${dir}/${n}`);
        if (next.length > GLOB_MAX_MATCHES) return undefined;
      }
    }
    if (next.length === 0) return [pattern];
    current = next;
  }
  return current;
}
