import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { AnyTool, ToolContext } from "../../src/declare/types.js";
import type { Registry } from "../../src/register/index.js";
import { ROOT } from "../helpers/cli.js";
import { tempDir, writeTree } from "../helpers/tmp.js";

const pkg = (name: string) =>
  path.join(ROOT, "node_modules", "@modelcontextprotocol", name, "dist", "index.js");

/** The reference servers, spawned with this Node (their bin entries are plain ESM scripts). */
export const EVERYTHING = { command: process.execPath, args: [pkg("server-everything"), "stdio"] };
export const filesystem = (dir: string) => ({
  command: process.execPath,
  args: [pkg("server-filesystem"), dir],
});

/**
 * A scripted stdio peer in plain JavaScript (no SDK) so a test controls every byte:
 *   garbage        prints text that is not JSON-RPC and never answers
 *   silent         reads and never answers initialize
 *   invalid        answers, but some of its tools have invalid schemas
 *   paged          lists its tools over three pages; `add` adds a tool and sends list_changed
 *   big            `big` answers {bytes} bytes of text, `small` answers "ok"
 *   blocks         `mixed` answers text, a block of an unknown type with a 7 KB payload, text
 *   refs           lists tools whose schemas have resolvable and unresolvable $refs
 *   crashloop      answers, then exits 50 ms after listing its tools
 *   crashfirst     exits at once on its first spawn, then is silent like `silent`
 *   hung           writes a line to stderr, never answers, and ignores SIGTERM and the end of its input
 *   clingy         answers (one tool, `small`), and ignores SIGTERM and the end of its input
 *   instructed     answers (one tool, `small`), with `instructions` at initialize
 * With a spawn log (third argument), each start appends its time in ms to that file.
 */
const FAKE = String.raw`
import { appendFileSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
const mode = process.argv[2];
const spawnLog = process.argv[3];
let spawnIndex = 0;
if (spawnLog) {
  try { spawnIndex = readFileSync(spawnLog, "utf8").split("\n").filter(Boolean).length; } catch {}
  appendFileSync(spawnLog, Date.now() + "\n");
}
if (mode === "crashfirst" && spawnIndex === 0) process.exit(1);
if (mode === "hung" || mode === "clingy") { process.on("SIGTERM", () => {}); setInterval(() => {}, 1000); }
if (mode === "hung") process.stderr.write("hung: loading a very large index\n");
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
const tool = (name, extra = {}) => ({ name, description: "the " + name + " tool",
  inputSchema: { type: "object", properties: { text: { type: "string" } } }, ...extra });
let tools = [];
if (mode === "invalid") tools = [
  tool("good"),
  { name: "bad_type", description: "x", inputSchema: { type: "object", properties: { a: { type: "banana" } } } },
  { name: "no_schema", description: "x" },
  { name: "not_object", description: "x", inputSchema: { type: "string" } },
];
if (mode === "paged") tools = [tool("p1"), tool("p2"), tool("p3"), tool("add"), tool("has.dot"), tool("has/dot")];
if (mode === "big") tools = [tool("big", { inputSchema: { type: "object", properties: { bytes: { type: "integer" } } } }), tool("small")];
if (mode === "blocks") tools = [tool("mixed")];
if (mode === "crashloop") tools = [tool("short_lived")];
if (mode === "clingy" || mode === "instructed") tools = [tool("small")];
const refTool = (name, ref) => ({ name, description: "x", inputSchema: { type: "object",
  properties: { p: { $ref: ref } }, $defs: { P: { type: "string" } } } });
if (mode === "refs") tools = [refTool("good_ref", "#/$defs/P"), refTool("bad_ref", "#/definitions/Missing"),
  refTool("remote_ref", "https://example.com/schemas/p.json")];
const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (mode === "garbage") { process.stdout.write("Hello! Server starting up, this is not JSON\n"); return; }
  if (mode === "silent" || mode === "crashfirst" || mode === "hung") return;
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (msg.method === "initialize") return send({ jsonrpc: "2.0", id: msg.id, result: {
    protocolVersion: msg.params.protocolVersion, capabilities: { tools: { listChanged: true } },
    serverInfo: { name: "fake-" + mode, version: "1.0.0" },
    ...(mode === "instructed" ? { instructions: "Call small before anything else." } : {}) } });
  if (msg.method === "tools/list") {
    if (mode === "crashloop") setTimeout(() => process.exit(1), 50);
    if (mode !== "paged") return send({ jsonrpc: "2.0", id: msg.id, result: { tools } });
    const start = Number(msg.params?.cursor ?? 0);
    const page = tools.slice(start, start + 2);
    const next = start + 2 < tools.length ? String(start + 2) : undefined;
    return send({ jsonrpc: "2.0", id: msg.id, result: { tools: page, ...(next ? { nextCursor: next } : {}) } });
  }
  if (msg.method === "tools/call") {
    const name = msg.params.name;
    if (name === "big") return send({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text",
      text: "line of output\n".repeat(Math.ceil(msg.params.arguments.bytes / 15)) }] } });
    if (name === "small") return send({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: "ok" }] } });
    if (name === "mixed") return send({ jsonrpc: "2.0", id: msg.id, result: { content: [
      { type: "text", text: "before" },
      { type: "hologram", payload: "P".repeat(7000) },
      { type: "text", text: "after" },
    ] } });
    if (name === "add") {
      tools.push(tool("added_" + tools.length));
      send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    }
    return send({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: name + ":" + JSON.stringify(msg.params.arguments ?? {}) }] } });
  }
  if (msg.method === "ping") return send({ jsonrpc: "2.0", id: msg.id, result: {} });
  send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "no " + msg.method } });
});
`;

let fakeFile: string | undefined;

export type FakeMode =
  | "garbage"
  | "silent"
  | "invalid"
  | "paged"
  | "big"
  | "blocks"
  | "refs"
  | "crashloop"
  | "crashfirst"
  | "hung"
  | "clingy"
  | "instructed";

export function fake(mode: FakeMode, extra: Record<string, unknown> = {}, spawnLog?: string) {
  fakeFile ??= path.join(writeTree(tempDir("tp-mcp-fake-"), { "fake.mjs": FAKE }), "fake.mjs");
  return { command: process.execPath, args: [fakeFile, mode, ...(spawnLog ? [spawnLog] : [])], ...extra };
}

/** The start times a fake server with a spawn log recorded, in order. */
export function spawnTimes(spawnLog: string): number[] {
  if (!existsSync(spawnLog)) return [];
  return readFileSync(spawnLog, "utf8").split("\n").filter(Boolean).map(Number);
}

/** Polls `check` every 25 ms until it is truthy, or fails after `limitMs` saying what it waited for. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false,
  limitMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const hit = check();
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Resolves once `check` passes on a fresh snapshot; re-checks after each invalidation. */
export async function until<T>(
  registry: Registry<AnyTool>,
  check: (names: string[]) => T | undefined | false,
  limitMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const snapshot = await registry.snapshot();
    const hit = check(snapshot.entries.map((e) => e.name));
    if (hit) return hit;
    if (Date.now() > deadline) {
      throw new Error(
        `condition not met; tools: ${snapshot.entries.map((e) => e.name).join(", ")}; problems: ${JSON.stringify(snapshot.problems)}`,
      );
    }
    await new Promise<void>((resolve) => {
      const off = registry.on("invalidated", () => {
        off();
        resolve();
      });
      setTimeout(() => {
        off();
        resolve();
      }, 200).unref();
    });
  }
}

export const ctx = (config: Record<string, unknown> = {}): ToolContext => ({
  signal: new AbortController().signal,
  cwd: ROOT,
  workspace: ROOT,
  config,
});
