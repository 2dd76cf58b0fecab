import { readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import picomatch from "picomatch";
import type { PermissionContext, PermissionNeed } from "../../declare/types.js";
import { type SandboxMode, sandboxSupport } from "../sandbox/bwrap.js";
import { classifyShell, type ShellAnalysis } from "./classify.js";
import { shellCwd } from "./cwd.js";
import { bashParser, parseWith } from "./parser.js";

/** Parses and classifies a command line (the parser loads on first use). */
export async function analyseCommand(command: string, home = os.homedir()): Promise<ShellAnalysis> {
  const parser = await bashParser();
  return classifyShell(parseWith(parser, command), { home, parse: (s) => parseWith(parser, s) });
}

/** The sandbox a command would run under here: the configured mode, and whether bwrap can give it. */
export function sandboxFor(config: Readonly<Record<string, unknown>>): {
  mode: SandboxMode;
  network: boolean;
  active: boolean;
  reason?: string;
} {
  const mode = (config["tools.sandbox"] as SandboxMode | undefined) ?? "workspace-write";
  const network = config["tools.sandboxNetwork"] === true;
  if (mode === "off") return { mode, network, active: false };
  const support = sandboxSupport();
  return support.available
    ? { mode, network, active: true }
    : { mode, network, active: false, reason: support.reason ?? "bubblewrap is not available" };
}

/** A glob that names more files than this asks instead of listing each as a write. */
const GLOB_MAX_MATCHES = 1000;

/**
 * What a bash call needs: `command` for each simple command (its own pattern), `write` for every
 * target with its path, and an ask for what the classifier cannot see through, for a line that
 * does not parse, and for running without the sandbox that tools.sandbox asks for.
 */
export async function bashNeeds(command: string, ctx: PermissionContext): Promise<PermissionNeed[]> {
  const cwd = shellCwd(ctx);
  const analysis = await analyseCommand(command);
  const sandbox = sandboxFor(ctx.config);
  const needs: PermissionNeed[] = analysis.commands.map((c) => ({ action: "command", patterns: c.patterns }));
  const paths: Array<{ path: string; subtree?: boolean }> = [];
  for (const w of analysis.writes) {
    // the sandbox's /tmp is private: nothing written there outlives the command
    if (sandbox.active && (w.path === "/tmp" || w.path.startsWith("/tmp/"))) continue;
    if (!w.glob) {
      paths.push(w.subtree ? { path: w.path, subtree: true } : { path: w.path });
      continue;
    }
    const matches = expandWords(w.path, cwd);
    if (matches === undefined) {
      needs.push({
        action: "write",
        patterns: [w.path],
        floor: {
          effect: "ask",
          reason: `${w.via} writes to ${w.path}, which names over ${GLOB_MAX_MATCHES} files`,
        },
      });
      continue;
    }
    for (const m of matches) paths.push(w.subtree ? { path: m, subtree: true } : { path: m });
  }
  if (paths.length > 0) needs.push({ action: "write", paths, cwd });
  for (const a of analysis.asks) {
    needs.push({ action: "command", patterns: [a.text], floor: { effect: "ask", reason: a.reason } });
  }
  if (sandbox.mode !== "off" && !sandbox.active) {
    needs.push({
      action: "command",
      patterns: [command],
      floor: { effect: "ask", reason: `it would run without a sandbox: ${sandbox.reason}` },
    });
  }
  return needs;
}

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
    const match = picomatch(part, { dot: part.startsWith(".") });
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
