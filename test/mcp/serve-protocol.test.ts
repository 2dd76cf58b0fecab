import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { CLI } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

// `toolplane serve` over stdio, fed bytes the SDK client would never send: each bad message must
// get a JSON-RPC error, and the server must keep serving the next one.
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

interface Reply {
  id?: string | number | null;
  result?: unknown;
  error?: { code: number; message: string };
}

function serve() {
  const p = tempProject();
  const child = spawn(process.execPath, [CLI, "serve", "--cwd", p.repo, "--set", "tools.examples=false"], {
    env: p.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(child);
  const replies: Reply[] = [];
  let pending = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    for (let nl = pending.indexOf("\n"); nl !== -1; nl = pending.indexOf("\n")) {
      replies.push(JSON.parse(pending.slice(0, nl)) as Reply);
      pending = pending.slice(nl + 1);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const send = (line: string) => child.stdin.write(`${line}\n`);
  /** The next reply matching `pick`, or a failure naming what was seen. */
  const waitFor = async (what: string, pick: (r: Reply) => boolean, limitMs = 15_000) => {
    const deadline = Date.now() + limitMs;
    for (;;) {
      const hit = replies.find(pick);
      if (hit) {
        replies.splice(replies.indexOf(hit), 1);
        return hit;
      }
      if (child.exitCode !== null) {
        throw new Error(`serve exited (${child.exitCode}) before ${what}; stderr: ${stderr}`);
      }
      if (Date.now() > deadline) throw new Error(`no reply for ${what}; got ${JSON.stringify(replies)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { child, send, waitFor, stderr: () => stderr };
}

const init = JSON.stringify({
  jsonrpc: "2.0",
  id: "init",
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

describe("toolplane serve (stdio) answers every bad message and keeps serving", () => {
  it("a message over the limit gets an error with its id; the session goes on", async () => {
    const s = serve();
    s.send(init);
    await s.waitFor("initialize", (r) => r.id === "init");
    const pad = "x".repeat(11 * 1024 * 1024);
    // the id comes last, as the TypeScript SDK writes it: found while the message streams past
    s.send(`{"jsonrpc":"2.0","method":"ping","params":{"pad":"${pad}"},"id":7}`);
    const big = await s.waitFor("the 11 MiB message", (r) => r.id === 7);
    expect(big.error?.code).toBe(-32600);
    expect(big.error?.message).toMatch(/over the limit of 4194304 bytes \(serve\.maxRequestBytes\)/);
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "ping" }));
    expect(await s.waitFor("a ping after it", (r) => r.id === 8)).toMatchObject({ result: {} });
    expect(s.child.exitCode).toBeNull();
    expect(s.stderr()).toMatch(/refused a message/);
  });

  it("a batch, a message without jsonrpc, params as a string and non-JSON each get an error", async () => {
    const s = serve();
    s.send(init);
    await s.waitFor("initialize", (r) => r.id === "init");
    s.send(
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", id: 2, method: "ping" },
      ]),
    );
    for (const id of [1, 2]) {
      const r = await s.waitFor(`batch member ${id}`, (x) => x.id === id);
      expect(r.error?.code).toBe(-32600);
      expect(r.error?.message).toMatch(/batches are not supported/);
    }
    s.send(JSON.stringify({ id: 3, method: "ping" }));
    const noVersion = await s.waitFor("no jsonrpc", (r) => r.id === 3);
    expect(noVersion.error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/"jsonrpc": "2\.0"/),
    });
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/list", params: "x" }));
    const badParams = await s.waitFor("params as a string", (r) => r.id === 4);
    expect(badParams.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/"params" must be an object/),
    });
    s.send("this is not json");
    const notJson = await s.waitFor("non-JSON", (r) => r.id === null && r.error?.code === -32700);
    expect(notJson.error?.message).toMatch(/Parse error/);
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/list" }));
    const listed = await s.waitFor("tools/list after all that", (r) => r.id === 5);
    expect((listed.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain("read");
  });
});
