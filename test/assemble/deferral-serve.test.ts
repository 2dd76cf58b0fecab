// Deferral defaults along the model's path: `toolplane serve` driven by the MCP SDK client, with
// MCP servers marked per server, and `toolplane call` for a person.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";
import { fake } from "../mcp/peers.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const text = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content ?? []).map((b) => b.text ?? "").join("\n");

function project(config: Record<string, unknown>) {
  // trusted: its MCP servers have a command, which an untrusted project's file may not start
  const p = tempProject({ ".toolplane/config.json": JSON.stringify(config) }, { trust: true });
  return { ...p, env: { ...p.bareEnv } };
}

async function serve(p: ReturnType<typeof project>, args: string[] = []) {
  const client = new Client({ name: "test", version: "1" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", "--cwd", p.repo, ...args],
    env: p.env as Record<string, string>,
    stderr: "pipe",
  });
  await client.connect(transport);
  cleanup.push(() => client.close());
  return client;
}

/** Lists until the MCP servers have started (their tools join the list once they answer). */
async function listUntil(client: Client, check: (names: string[]) => boolean): Promise<string[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const names = (await client.listTools()).tools.map((t) => t.name);
    if (check(names) || Date.now() > deadline) return names;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("deferral marks per MCP server, through toolplane serve", () => {
  it("a server marked always is listed by name only and its tools need tool_search first; one marked never stays", async () => {
    const p = project({
      mcp: {
        servers: {
          lazy: fake("paged", { defer: "always" }),
          keep: fake("paged", { defer: "never" }),
        },
      },
      // far past the threshold: only the built-ins and the server marked never stay
      defer: { threshold: 2 },
    });
    const client = await serve(p);
    const names = await listUntil(client, (n) => n.includes("mcp__keep__p1") && n.includes("tool_search"));
    expect(names).toEqual(expect.arrayContaining(["read", "grep", "glob", "skill", "mcp__keep__p1"]));
    expect(names).toContain("tool_search");
    expect(names.filter((n) => n.startsWith("mcp__lazy__"))).toEqual([]);

    // the model calls a deferred tool without searching: it is told to search first
    const early = await client.callTool({ name: "mcp__lazy__p2", arguments: { text: "x" } });
    expect(early.isError).toBe(true);
    expect(text(early)).toContain("mcp__lazy__p2 is not available here: it is deferred");
    expect(text(early)).toContain('call tool_search first (e.g. {"pattern": "^mcp__lazy__p2$"}');

    const search = await client.callTool({ name: "tool_search", arguments: { pattern: "^mcp__lazy__p2$" } });
    expect(text(search)).toContain("Loaded now: mcp__lazy__p2.");
    // the list follows (tools/list_changed), the loaded tool after everything else
    const after = await listUntil(client, (n) => n.includes("mcp__lazy__p2"));
    expect(after.at(-1)).toBe("mcp__lazy__p2");
    const ok = await client.callTool({ name: "mcp__lazy__p2", arguments: { text: "x" } });
    expect(ok.isError).toBeFalsy();
    expect(text(ok)).toBe('p2:{"text":"x"}');
  });

  it("the default: built-ins are resident and MCP tools are deferred past the threshold", async () => {
    const p = project({ mcp: { servers: { srv: fake("paged") } }, defer: { threshold: 3 } });
    const client = await serve(p);
    const names = await listUntil(client, (n) => n.includes("tool_search"));
    expect(names).toEqual(expect.arrayContaining(["read", "grep", "glob", "skill", "tool_search"]));
    expect(names.filter((n) => n.startsWith("mcp__srv__"))).toEqual([]);
    expect(names).not.toContain("ticket_status");
  });
});

describe("toolplane call for a person", () => {
  it("loads a deferred tool for the call and says so on stderr", () => {
    const p = project({ defer: { tools: { glob: "always" } } });
    const r = runCli(["call", "glob", "--args", '{"pattern":"*.json"}'], { cwd: p.repo, env: p.env });
    expect(r.stderr).toContain(
      "note: glob is deferred (the model loads it with tool_search first); loaded for this call",
    );
    expect(r.code).toBe(0);
  });
});
