import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
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
const cli = path.resolve(here, "..", "src", "cli", "main.js");
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

async function main() {
  const figures = [...(await roundTrip()), ...(await listServer()), ...(await listClient())];
  figures.push({ name: "peak RSS", value: round(peakRssMiB(), 1), unit: "MiB" });
  emit({ bench: "mcp", figures });
}

await main();
