import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Toolplane } from "../src/assemble/index.js";
import { defineTool } from "../src/declare/index.js";
import type { AnyTool } from "../src/declare/types.js";
import { registerMcpServers } from "../src/mcp/index.js";
import { createToolServer } from "../src/mcp/server/index.js";
import { GLOBAL_LAYER, Registry } from "../src/register/index.js";
import { emit, type Figure, median, peakRssMiB, round, timeRuns } from "./lib.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.resolve(here, "..", "src", "cli", "main.cjs");
const N = 10_000;

function manyTools(n: number): AnyTool[] {
  return Array.from({ length: n }, (_, i) =>
    defineTool({
      name: `tool_${i}`,
      description: `Tool number ${i}: looks up record ${i} by id. Not for writes.`,
      parameters: {
        type: "object",
        properties: { id: { type: "string", description: "record id" }, limit: { type: "integer" } },
        required: ["id"],
      },
      output: { schema: { type: "string" }, render: (v: string) => v },
      execute: () => "ok",
    }),
  );
}

/** A plain JSON-RPC stdio peer listing `n` tools in pages of 1,000 (no SDK: its own cost stays out). */
function bigServer(n: number): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "tp-bench-mcp-")), "big.mjs");
  writeFileSync(
    file,
    `import { createInterface } from "node:readline";
const tools = Array.from({ length: ${n} }, (_, i) => ({ name: "t" + i, description: "tool " + i,
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } }));
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (msg.method === "initialize") return send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "big", version: "1" } } });
  if (msg.method === "tools/list") { const s = Number(msg.params?.cursor ?? 0); return send({ jsonrpc: "2.0", id: msg.id, result: { tools: tools.slice(s, s + 1000), ...(s + 1000 < tools.length ? { nextCursor: String(s + 1000) } : {}) } }); }
  send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "no" } });
});
`,
  );
  return file;
}

async function roundTrip(): Promise<Figure[]> {
  const cwd = mkdtempSync(path.join(tmpdir(), "tp-bench-serve-"));
  // the example tool is off by default; this figure times it as a stand-in third-party tool
  const env = { HOME: cwd, PATH: process.env.PATH ?? "", TOOLPLANE_TOOLS_EXAMPLES: "true" };
  const args = { ticket_id: "T-1001", include_history: true };
  // in process: the same tool through the same execution host that `serve` uses
  const plane = await Toolplane.open({ cwd, env });
  const host = plane.host();
  const signal = new AbortController().signal;
  const local = await timeRuns(() => host.call({ tool: "ticket_status", args }, { signal }), 2000, 200);
  await plane.close();
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cli, "serve", "--cwd", cwd],
      env,
      stderr: "ignore",
    }),
  );
  const remote = await timeRuns(() => client.callTool({ name: "ticket_status", arguments: args }), 500, 50);
  await client.close();
  const l = median(local);
  const r = median(remote);
  return [
    { name: "ticket_status call in process, median", value: round(l, 4), unit: "ms" },
    {
      name: "same call through `toolplane serve` (stdio, SDK client), median",
      value: round(r, 3),
      unit: "ms",
    },
    { name: "serve round trip / in-process call", value: round(r / l, 1), unit: "x" },
    { name: "serve overhead per call (difference of medians)", value: round(r - l, 3), unit: "ms" },
  ];
}

async function listServer(): Promise<Figure[]> {
  const registry = new Registry<AnyTool>({ kind: "tool" });
  const tools = manyTools(N);
  const handle = registry.register(GLOBAL_LAYER, { name: "many", enumerate: () => tools });
  const hub = await createToolServer({
    tools: async () => (await registry.snapshot()).entries.map((e) => e.entry),
    run: async () => {
      throw new Error("not called");
    },
    subscribe: (listener) => registry.on("invalidated", listener),
    debounceMs: 1,
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await hub.open().connect(a);
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(b);
  const warm = await timeRuns(() => client.listTools(), 20, 2);
  const cold = await timeRuns(
    async () => {
      handle.changed();
      await new Promise((r) => setTimeout(r, 5));
      await hub.idle();
      await client.listTools();
    },
    10,
    1,
  );
  // baseline: the same client and transport against a bare SDK server returning a precomputed list
  const entries = tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters }));
  const bare = new Server({ name: "bare", version: "1" }, { capabilities: { tools: {} } });
  bare.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: entries }));
  const [c, d] = InMemoryTransport.createLinkedPair();
  await bare.connect(c);
  const bareClient = new Client({ name: "bench", version: "1" });
  await bareClient.connect(d);
  const base = await timeRuns(() => bareClient.listTools(), 20, 2);
  await bareClient.close();
  await client.close();
  await hub.close();
  return [
    {
      name: "tools/list of 10,000 tools, warm (SDK client, in-memory transport), median",
      value: round(median(warm), 2),
      unit: "ms",
    },
    {
      name: "tools/list of 10,000 tools after a change (re-project, fingerprint, list), median",
      value: round(median(cold), 2),
      unit: "ms",
    },
    {
      name: "warm tools/list / bare SDK server listing the same precomputed tools",
      value: round(median(warm) / median(base), 2),
      unit: "x",
    },
  ];
}

async function listClient(): Promise<Figure[]> {
  const file = bigServer(N);
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const registry = new Registry<AnyTool>({ kind: "tool", enumerateTimeoutMs: 60_000 });
    const clients = registerMcpServers(registry, {
      big: { command: process.execPath, args: [file], startTimeoutMs: 60_000 },
    });
    const t0 = performance.now();
    const snapshot = await registry.snapshot();
    times.push(performance.now() - t0);
    if (snapshot.entries.length !== N)
      throw new Error(`listed ${snapshot.entries.length} tools, expected ${N}`);
    await clients.close();
  }
  // baseline: a bare SDK client starting the same server and paging through tools/list
  const bare: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const client = new Client({ name: "bench", version: "1" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [file] }));
    let listed = 0;
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      listed += page.tools.length;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    bare.push(performance.now() - t0);
    if (listed !== N) throw new Error(`bare client listed ${listed} tools, expected ${N}`);
    await client.close();
  }
  return [
    {
      name: "client: start a stdio server and list 10,000 tools (10 pages) into a snapshot, median",
      value: round(median(times), 1),
      unit: "ms",
    },
    {
      name: "baseline: bare SDK client starting the same server and paging through tools/list, median",
      value: round(median(bare), 1),
      unit: "ms",
    },
    {
      name: "client snapshot / bare SDK client listing",
      value: round(median(times) / median(bare), 2),
      unit: "x",
    },
  ];
}

/**
 * A built-in `read` in process, with and without an MCP server that never answers initialize
 * configured. The server's first start is waited for once (the first read); every later start is a
 * background retry, which no read may wait for. The run lasts long enough for several retries.
 */
async function readWhileStuck(): Promise<Figure[]> {
  const cwd = mkdtempSync(path.join(tmpdir(), "tp-bench-stuck-"));
  const env = { HOME: cwd, PATH: process.env.PATH ?? "" };
  writeFileSync(path.join(cwd, "notes.txt"), "a line of notes\n".repeat(200));
  const spawnLog = path.join(cwd, "spawns");
  const stuck = path.join(cwd, "stuck.mjs");
  writeFileSync(
    stuck,
    `import { appendFileSync } from "node:fs"; appendFileSync(${JSON.stringify(spawnLog)}, "x\\n"); process.stdin.resume();\n`,
  );
  const startTimeoutMs = 1000;
  const servers = { stuck: { command: process.execPath, args: [stuck], startTimeoutMs } };
  const common = { cwd, env, bundledSkills: null } as const;
  const plain = await Toolplane.open({ ...common, set: ["tools.examples=false"] });
  const stalled = await Toolplane.open({
    ...common,
    set: ["tools.examples=false", `mcp.servers=${JSON.stringify(servers)}`],
  });
  const signal = new AbortController().signal;
  const read = (plane: Toolplane) => {
    const host = plane.host();
    return async () => {
      const r = await host.call({ tool: "read", args: { path: "notes.txt" } }, { signal });
      if (r.isError) throw new Error(`read failed: ${JSON.stringify(r.content)}`);
    };
  };
  const readPlain = read(plain);
  const readStalled = read(stalled);
  await readStalled(); // the first read waits for the first start, once
  if (!(await stalled.toolSnapshot()).problems.some((p) => p.provider === "mcp:stuck")) {
    throw new Error("the unresponsive server was not reported: the measurement would not mean anything");
  }
  const base: number[] = [];
  const withStuck: number[] = [];
  // alternating rounds, so a change in machine load hits both sides; 7 s covers the retries at 1, 3 and 7 s
  const until = performance.now() + 7_000;
  while (performance.now() < until) {
    base.push(...(await timeRuns(readPlain, 100, 5)));
    withStuck.push(...(await timeRuns(readStalled, 100, 5)));
  }
  const retries = readFileSync(spawnLog, "utf8").split("\n").filter(Boolean).length - 1;
  await plain.close();
  await stalled.close();
  const ratio = median(withStuck) / median(base);
  const slowest = Math.max(...withStuck);
  return [
    { name: "built-in read in process, median", value: round(median(base), 4), unit: "ms" },
    {
      name: "same read with an MCP server configured that never answers initialize, median",
      value: round(median(withStuck), 4),
      unit: "ms",
    },
    {
      name: "read with the unresponsive server / read without it",
      value: round(ratio, 2),
      unit: "x",
      goal: "<= 1.2",
      ok: ratio <= 1.2,
    },
    {
      name: `slowest of ${withStuck.length} reads with the unresponsive server, while it was retried ${retries} times in the background`,
      value: round(slowest, 2),
      unit: "ms",
      goal: `< ${startTimeoutMs / 4} (no read waits for its ${startTimeoutMs} ms start timeout)`,
      ok: slowest < startTimeoutMs / 4 && retries >= 2,
    },
  ];
}

/** VmRSS (or VmHWM, the peak) of a process, from /proc, in MiB. */
function procMiB(pid: number, field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no ${field} for process ${pid}`);
  return Number(match[1]) / 1024;
}

/**
 * `toolplane serve --http` RSS after 10,000 `initialize` calls, each opening a session that its
 * client then abandons: the session cap (serve.maxSessions, default 100) bounds them during the
 * burst, and idle expiry (here 1 s) closes the rest.
 */
async function sessionMemory(): Promise<Figure[]> {
  const cwd = mkdtempSync(path.join(tmpdir(), "tp-bench-sessions-"));
  const token = "bench-token-0123456789abcdef";
  const idleMs = 1000;
  // The server is the real CLI, behind a wrapper that runs a full GC on SIGUSR2: RSS read after a
  // GC says what the server still holds; without one it mostly says when V8 last collected.
  const wrapper = path.join(cwd, "serve-with-gc.mjs");
  writeFileSync(
    wrapper,
    `process.on("SIGUSR2", () => { globalThis.gc(); globalThis.gc(); });\nawait import(${JSON.stringify(pathToFileURL(cli).href)});\n`,
  );
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--expose-gc",
      wrapper,
      "serve",
      "--http",
      "0",
      "--cwd",
      cwd,
      "--set",
      "tools.examples=false",
      "--set",
      `serve.sessionIdleMs=${idleMs}`,
    ],
    {
      env: { HOME: cwd, PATH: process.env.PATH ?? "", TOOLPLANE_SERVE_TOKEN: token },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let err = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1] as string);
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  const pid = child.pid as number;
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  });
  const headers = {
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const initialize = async () => {
    const res = await fetch(url, { method: "POST", headers, body });
    await res.text();
    if (res.status !== 200) throw new Error(`initialize answered ${res.status}`);
  };
  const burst = async (total: number) => {
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < total) {
          next++;
          await initialize();
        }
      }),
    );
    return total / ((performance.now() - t0) / 1000);
  };
  /** Waits for the sessions to expire, collects garbage, and reads the RSS. */
  const settled = async () => {
    await new Promise((r) => setTimeout(r, idleMs * 3));
    process.kill(pid, "SIGUSR2");
    await new Promise((r) => setTimeout(r, 500));
    return procMiB(pid, "VmRSS");
  };
  // warm up until V8's heap has its working size, so the baseline is not the empty process
  await burst(2_000);
  const before = await settled();
  const rate = await burst(10_000);
  const first = await settled();
  await burst(10_000);
  const second = await settled();
  const peak = procMiB(pid, "VmHWM");
  await new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
  const growth = second / first;
  return [
    {
      name: "serve --http RSS after 2,000 initialize calls, sessions expired, after a GC (baseline)",
      value: round(before, 1),
      unit: "MiB",
    },
    {
      name: `serve --http RSS after 10,000 more initialize calls (${round(rate, 0)}/s, 8 at a time), sessions expired (serve.sessionIdleMs=${idleMs})`,
      value: round(first, 1),
      unit: "MiB",
    },
    { name: "same after another 10,000 initialize calls", value: round(second, 1), unit: "MiB" },
    { name: "RSS after the first 10,000 / baseline", value: round(first / before, 2), unit: "x" },
    {
      name: "RSS after the second 10,000 / after the first (a leak grows it: sessions held forever cost ~33 KB each)",
      value: round(growth, 2),
      unit: "x",
      goal: "<= 1.1 (flat)",
      ok: growth <= 1.1,
    },
    { name: "serve --http peak RSS over the whole run", value: round(peak, 1), unit: "MiB" },
  ];
}

async function main() {
  const figures = [
    ...(await roundTrip()),
    ...(await listServer()),
    ...(await listClient()),
    ...(await readWhileStuck()),
    ...(await sessionMemory()),
  ];
  figures.push({ name: "peak RSS", value: round(peakRssMiB(), 1), unit: "MiB" });
  emit({ bench: "mcp", figures });
}

await main();
