import type { Word } from "./words.js";

/** Which options of a command take a value (hand-written: each command's own getopt table). */
export interface OptionSpec {
  /** Short option letters that take a value (`-o FILE`, `-oFILE`). */
  short?: string;
  /** Long options that take a value (`--output FILE`, `--output=FILE`), without the dashes. */
  long?: readonly string[];
  /** Short letters whose value can only be attached (`sed -i.bak`): never the next word. */
  attached?: string;
  /** Stop at the first operand (POSIX): later words are operands even when they start with `-`. */
  posix?: boolean;
}

export interface ParsedOptions {
  /** Option (`-o`, `--output`) -> its values (`""` for a flag without one). */
  options: Map<string, string[]>;
  operands: Word[];
}

/**
 * Splits a command's arguments into options and operands the way getopt_long does. A word whose
 * value is only known at run time is an operand: it could be anything, so it is never taken for a
 * harmless flag.
 */
export function parseOptions(args: readonly Word[], spec: OptionSpec = {}): ParsedOptions {
  const options = new Map<string, string[]>();
  const operands: Word[] = [];
  const put = (key: string, value: string) => {
    const list = options.get(key);
    if (list) list.push(value);
    else options.set(key, [value]);
  };
  let onlyOperands = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (onlyOperands || v === undefined || v === "-" || !v.startsWith("-")) {
      operands.push(w);
      if (spec.posix) onlyOperands = true;
      continue;
    }
    if (v === "--") {
      onlyOperands = true;
      continue;
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const name = eq < 0 ? v.slice(2) : v.slice(2, eq);
      if (eq >= 0) put(`--${name}`, v.slice(eq + 1));
      else if (spec.long?.includes(name) && i + 1 < args.length) put(`--${name}`, args[++i]!.value ?? "\0");
      else put(`--${name}`, "");
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const letter = v[j]!;
      if (spec.attached?.includes(letter)) {
        put(`-${letter}`, v.slice(j + 1));
        break;
      }
      if (spec.short?.includes(letter)) {
        const rest = v.slice(j + 1);
        if (rest !== "") put(`-${letter}`, rest);
        else if (i + 1 < args.length) put(`-${letter}`, args[++i]!.value ?? "\0");
        else put(`-${letter}`, "");
        break;
      }
      put(`-${letter}`, "");
    }
  }
  return { options, operands };
}

/** Whether any of the given options (`-r`, `--recursive`) was given. */
export function has(parsed: ParsedOptions, ...keys: string[]): boolean {
  return keys.some((k) => parsed.options.has(k));
}

/** The values of the given options, in the order the keys are listed. */
export function valuesOf(parsed: ParsedOptions, ...keys: string[]): string[] {
  return keys.flatMap((k) => parsed.options.get(k) ?? []);
}

/** A command's complete option table: an option not in it is unknown, and unknown options ask. */
export interface StrictSpec {
  /** Short letters that take no value. */
  flags?: string;
  /** Short letters that take a value (`-n 5`, `-n5`). */
  valued?: string;
  /** Long options without a value (without the dashes). */
  long?: readonly string[];
  /** Long options with a value (`--lines 5`, `--lines=5`). */
  longValued?: readonly string[];
  /** Long options whose value is optional and only attached (`--color`, `--color=never`). */
  longOptional?: readonly string[];
  /** `-5` means a count (head, tail, grep context). */
  numeric?: boolean;
  /** Options end at the first operand. */
  posix?: boolean;
}

export interface StrictOptions extends ParsedOptions {
  /** Options the table does not know, as written. */
  unknown: string[];
}

/**
 * getopt_long over a complete table. Abbreviated long options (which GNU getopt and git accept)
 * are unknown on purpose: `--out` may be `--output`, so it asks.
 */
export function strictOptions(args: readonly Word[], spec: StrictSpec): StrictOptions {
  const options = new Map<string, string[]>();
  const operands: Word[] = [];
  const unknown: string[] = [];
  const put = (key: string, value: string) => {
    const list = options.get(key);
    if (list) list.push(value);
    else options.set(key, [value]);
  };
  let onlyOperands = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (onlyOperands || v === undefined || v === "-" || !v.startsWith("-")) {
      operands.push(w);
      if (spec.posix) onlyOperands = true;
      continue;
    }
    if (v === "--") {
      onlyOperands = true;
      continue;
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const name = eq < 0 ? v.slice(2) : v.slice(2, eq);
      if (spec.longValued?.includes(name)) {
        if (eq >= 0) put(`--${name}`, v.slice(eq + 1));
        else if (i + 1 < args.length) put(`--${name}`, args[++i]!.value ?? "\0");
        else unknown.push(v);
      } else if (spec.longOptional?.includes(name)) put(`--${name}`, eq >= 0 ? v.slice(eq + 1) : "");
      else if (spec.long?.includes(name) && eq < 0) put(`--${name}`, "");
      else unknown.push(v);
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(v)) {
      put("-#", v.slice(1));
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const letter = v[j]!;
      if (spec.valued?.includes(letter)) {
        const rest = v.slice(j + 1);
        if (rest !== "") put(`-${letter}`, rest);
        else if (i + 1 < args.length) put(`-${letter}`, args[++i]!.value ?? "\0");
        else unknown.push(v);
        break;
      }
      if (spec.flags?.includes(letter)) put(`-${letter}`, "");
      else {
        unknown.push(`-${letter}`);
        break;
      }
    }
  }
  return { options, operands, unknown };
}
