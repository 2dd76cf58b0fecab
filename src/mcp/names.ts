import { sha256 } from "../util/hash.js";

export const MCP_NAME_PREFIX = "mcp__";
const MAX_NAME = 64;
const HASH_CHARS = 6;

/** Replaces every character a provider rejects in a tool name with `_`. */
export function sanitise(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_");
}

function hashOf(server: string, tool: string): string {
  return sha256(`${server}\u0000${tool}`).slice(0, HASH_CHARS);
}

function withHash(base: string, server: string, tool: string): string {
  const suffix = `_${hashOf(server, tool)}`;
  return `${base.slice(0, MAX_NAME - suffix.length)}${suffix}`;
}

/**
 * Qualified names `mcp__<server>__<tool>` for one server's raw tool names, as a map raw -> name.
 * A name that is too long, or that two raw names share after sanitising, gets a short hash of the
 * raw name. The result does not depend on list order: of the raw names that collide, the one that
 * needed no sanitising keeps the plain name, so an exact name never moves when a look-alike appears.
 */
export function qualifyToolNames(server: string, rawNames: readonly string[]): Map<string, string> {
  const serverPart = serverKey(server);
  const plain = new Map<string, string[]>();
  for (const raw of new Set(rawNames)) {
    const base = `${MCP_NAME_PREFIX}${serverPart}__${sanitise(raw)}`;
    plain.set(base, [...(plain.get(base) ?? []), raw]);
  }
  const out = new Map<string, string>();
  for (const [base, raws] of plain) {
    for (const raw of raws) {
      const exact = sanitise(raw) === raw;
      const alone = raws.length === 1;
      const keep = base.length <= MAX_NAME && (alone || exact);
      out.set(raw, keep ? base : withHash(base, server, raw));
    }
  }
  return out;
}

/** The server's part of a name; one that needed sanitising carries a hash so `a.b` and `a_b` differ. */
export function serverKey(server: string): string {
  const clean = sanitise(server);
  return clean === server ? clean : `${clean}_${sha256(server).slice(0, 4)}`;
}

/** Whether a qualified tool name could come from this server (every one of its tools has the prefix). */
export function couldComeFrom(server: string, toolName: string): boolean {
  return toolName.startsWith(`${MCP_NAME_PREFIX}${serverKey(server)}__`);
}
