// Several scope chains served by one plane: a reviewer and a writer agent share the registries,
// skills and MCP connections (one server process), each with its own tools, deferral and reads.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import { tempDir, tempProject } from "../helpers/tmp.js";
import { simpleTool } from "../helpers/tools.js";
import { fake, spawnTimes } from "../mcp/peers.js";

const planes: Toolplane[] = [];
afterEach(async () => {
  for (const p of planes.splice(0)) await p.close();
});

const REVIEWER = "session-1>agent:reviewer";
const WRITER = "session-1>agent:writer";
const toolNames = (c: { tools: unknown[] }) => c.tools.map((t) => (t as { name: string }).name);

async function open() {
  const log = path.join(tempDir("tp-scopes-"), "spawns");
  const servers = { guide: fake("instructed", {}, log) };
  const config = {
    mcp: { servers },
    defer: { mode: "off" },
    scopes: { restrictions: { "agent:reviewer": { deny: ["write", "edit"] } } },
  };
  const p = tempProject({ ".toolplane/config.json": JSON.stringify(config) }, { trust: true });
  const plane = await Toolplane.open({ cwd: p.repo, env: p.env, bundledSkills: null });
  planes.push(plane);
  plane.tools.register("agent:writer", { name: "drafts", enumerate: () => [simpleTool("draft_post")] });
  return { plane, log, repo: p.repo };
}

describe("one plane, several scope chains", () => {
  it("catalog(provider, {scope}) renders each chain; the MCP server is started once for all", async () => {
    const { plane, log } = await open();
    const reviewer = await plane.catalog("anthropic", { scope: REVIEWER });
    const writer = await plane.catalog("anthropic", { scope: WRITER });
    const plain = await plane.catalog("anthropic");
    expect(toolNames(writer)).toContain("draft_post");
    expect(toolNames(writer)).toContain("write");
    expect(toolNames(reviewer)).not.toContain("draft_post");
    expect(toolNames(reviewer)).not.toContain("write");
    expect(toolNames(reviewer)).not.toContain("edit");
    expect(toolNames(plain)).not.toContain("draft_post");
    for (const c of [reviewer, writer, plain]) expect(toolNames(c)).toContain("mcp__guide__small");
    expect(spawnTimes(log)).toHaveLength(1);
    // the same view every time: a chain's renders are stable, and distinct chains differ
    expect((await plane.catalog("anthropic", { scope: WRITER })).prefixHash).toBe(writer.prefixHash);
    expect(reviewer.prefixHash).not.toBe(writer.prefixHash);
    expect(plane.scoped(WRITER)).toBe(plane.scoped(` ${WRITER} `));
    expect(plane.scoped(undefined)).toBe(plane);
  });

  it("host({scope}) calls what its chain may call, and refuses what it may not", async () => {
    const { plane, repo } = await open();
    const writer = plane.host({ scope: WRITER, ask: async () => true });
    const reviewer = plane.host({ scope: REVIEWER, ask: async () => true });
    expect((await writer.call({ tool: "draft_post", args: { q: "hi" } })).isError).toBe(false);
    const refused = await reviewer.call({ tool: "draft_post", args: { q: "hi" } });
    expect(refused.error?.code).toBe("unknown_tool");
    const write = await reviewer.call({
      tool: "write",
      args: { file_path: path.join(repo, "x.txt"), content: "x" },
    });
    expect(write.isError).toBe(true);
    // through call() too, and the MCP tool from either chain
    expect((await plane.call("mcp__guide__small", {}, { scope: REVIEWER })).isError).toBe(false);
    expect((await plane.call("mcp__guide__small", {}, { scope: WRITER })).isError).toBe(false);
  });

  it("a session of a scope view keeps the chain; each chain has its own deferral", async () => {
    const { plane } = await open();
    const view = plane.scoped(WRITER);
    expect(view.chain).toEqual(["session-1", "agent:writer"]);
    expect(view.newSession().chain).toEqual(view.chain);
    expect(view.deferral).not.toBe(plane.deferral);
    expect(plane.scoped(REVIEWER).toolSession).not.toBe(view.toolSession);
    expect(toolNames(await view.newSession().catalog("openai-responses")).length).toBeGreaterThan(0);
    // a view watches through the plane: one watcher, which the plane's close() stops
    expect(await view.watchSkills()).toBe(await plane.watchSkills());
    expect(await plane.newSession().watchSkills()).toBe(await plane.watchSkills());
    // closing a view does nothing; closing the plane ends the shared server
    await view.close();
    expect((await plane.call("mcp__guide__small", {}, { scope: WRITER })).isError).toBe(false);
  });
});
