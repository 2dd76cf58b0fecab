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
    const matches = expandGlob(w.path, cwd);
    if (matches === undefined) {
      needs.push({
        action: "write",
        patterns: [w.path],
        floor: { effect: "ask", reason: `${w.via} writes to ${w.path}, which names over ${GLOB_MAX_MATCHES} files` },
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
