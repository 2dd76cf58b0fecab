// catalog.volatile along the user's path: the library, an MCP server's instructions, the CLI,
// `toolplane serve` (MCP instructions at initialize) and both SDK adapters (a message the
// harness sends after its cached prefix).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  Agent,
  type Model,
  type ModelRequest,
  type ModelResponse,
  run,
  setTraceProcessors,
  setTracingDisabled,
  Usage,
} from "@openai/agents";
import { generateText } from "ai";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { aiSdkAttachments, aiSdkTools } from "../../src/adapters/ai-sdk.js";
import { openaiAgentsAttachments, openaiAgentsTools } from "../../src/adapters/openai-agents.js";
import { Toolplane } from "../../src/assemble/index.js";
import { SKILLS_HEADER } from "../../src/render/index.js";
import { CLI, runJson } from "../helpers/cli.js";
import { scriptedModel } from "../helpers/scripted-model.js";
import { tempProject } from "../helpers/tmp.js";
import { fake } from "../mcp/peers.js";

const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nSteps.\n`;
const addSkill = (repo: string, name: string) => {
  const dir = path.join(repo, ".toolplane", "skills", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "SKILL.md"), skill(name));
};

const planes: Toolplane[] = [];
async function open(repo: string, env: NodeJS.ProcessEnv, set: string[] = []) {
  const plane = await Toolplane.open({ cwd: repo, env, set, bundledSkills: null });
  planes.push(plane);
  return plane;
}
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const plane of planes.splice(0)) await plane.close();
  for (const fn of cleanup.splice(0).reverse()) await fn();
});
beforeAll(() => {
  setTracingDisabled(true);
  setTraceProcessors([]);
});

describe("attachments through Toolplane.catalog", () => {
  it("a skill added on disk while the plane runs changes the attachments; tools, system and prefixHash stay", async () => {
    const p = tempProject({ ".toolplane/skills/alpha/SKILL.md": skill("alpha") });
    const plane = await open(p.repo, p.env);
    await plane.watchSkills();
    const before = await plane.catalog("anthropic");
    expect(before.system).toBe("");
    expect(before.attachments).toEqual([
      { kind: "skills", text: `${SKILLS_HEADER}\n- alpha: The alpha skill.` },
    ]);
    const changed = new Promise<void>((resolve) => plane.skills.on("invalidated", () => resolve()));
    addSkill(p.repo, "beta");
    await changed;
    const after = await plane.catalog("anthropic");
    expect(after.attachments[0]!.text).toContain("- beta: The beta skill.");
    expect(after.tools).toEqual(before.tools);
    expect(after.system).toBe(before.system);
    expect(after.prefixHash).toBe(before.prefixHash);

    // catalog.volatile=system puts the listing back into the system text, inside the hash
    const inSystem = await open(p.repo, p.env, ["catalog.volatile=system"]);
    const s = await inSystem.catalog("anthropic");
    expect(s.system).toBe(after.attachments[0]!.text);
    expect(s.attachments).toEqual([]);
    expect(s.prefixHash).not.toBe(after.prefixHash);
  });

  it("a connected MCP server's instructions are an attachment of their own (system text under catalog.volatile=system)", async () => {
    const servers = { guide: fake("instructed") };
    const p = tempProject(
      { ".toolplane/config.json": JSON.stringify({ mcp: { servers } }) },
      { trust: true },
    );
    const plane = await open(p.repo, p.env);
    const c = await plane.catalog("openai-chat");
    expect(c.attachments).toContainEqual({
      kind: "mcp-instructions",
      text: 'Instructions from MCP server "guide":\nCall small before anything else.',
    });
    expect(c.system).toBe("");
    const sys = await open(p.repo, p.env, ["catalog.volatile=system"]);
    expect((await sys.catalog("openai-chat")).system).toContain("Call small before anything else.");
  });
});

describe("attachments on the user's paths", () => {
  it("toolplane catalog --json carries them as {kind, text}; --set catalog.volatile=system moves them", () => {
    const p = tempProject({ ".toolplane/skills/alpha/SKILL.md": skill("alpha") });
    const json = runJson(["catalog", "--json"], { cwd: p.repo, env: p.env }) as {
      system: string;
      attachments: Array<{ kind: string; text: string }>;
      prefixHash: string;
    };
    expect(json.system).toBe("");
    expect(json.attachments.map((a) => a.kind)).toEqual(["skills"]);
    expect(json.attachments[0]!.text).toContain("- alpha: The alpha skill.");
    const sys = runJson(["catalog", "--json", "--set", "catalog.volatile=system"], {
      cwd: p.repo,
      env: p.env,
    }) as { system: string; attachments: unknown[] };
    expect(sys.system).toContain("- alpha: The alpha skill.");
    expect(sys.attachments).toEqual([]);
  });

  it("toolplane serve gives a client the listing as the server's instructions", async () => {
    const p = tempProject({ ".toolplane/skills/alpha/SKILL.md": skill("alpha") });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "serve", "--cwd", p.repo],
        env: p.env as Record<string, string>,
        stderr: "pipe",
      }),
    );
    cleanup.push(() => client.close());
    expect(client.getInstructions()).toBe(`${SKILLS_HEADER}\n- alpha: The alpha skill.`);
  });

  it("the AI SDK adapter: the attachment message reaches the model after the conversation, tools unchanged", async () => {
    const p = tempProject({ ".toolplane/skills/alpha/SKILL.md": skill("alpha") });
    const plane = await open(p.repo, p.env);
    const tools = await aiSdkTools(plane);
    const extra = await aiSdkAttachments(plane);
    expect(extra).toEqual([{ role: "user", content: `${SKILLS_HEADER}\n- alpha: The alpha skill.` }]);
    const model = scriptedModel(() => ({ text: "ok" }));
    await generateText({ model, tools, messages: [{ role: "user", content: "hello" }, ...extra] });
    const prompt = JSON.stringify(model.doGenerateCalls[0]!.prompt);
    expect(prompt).toContain("- alpha: The alpha skill.");
    expect(JSON.stringify(model.doGenerateCalls[0]!.tools)).not.toContain("alpha");
  });

  it("the Agents SDK adapter: the attachment items reach the model's input", async () => {
    const p = tempProject({ ".toolplane/skills/alpha/SKILL.md": skill("alpha") });
    const plane = await open(p.repo, p.env);
    const requests: ModelRequest[] = [];
    const model: Model = {
      async getResponse(request: ModelRequest): Promise<ModelResponse> {
        requests.push(request);
        const output = [
          {
            type: "message" as const,
            role: "assistant" as const,
            status: "completed" as const,
            content: [{ type: "output_text" as const, text: "ok" }],
          },
        ];
        return { usage: new Usage(), output };
      },
      // biome-ignore lint/correctness/useYield: non-streamed runs only
      async *getStreamedResponse(): AsyncIterable<never> {
        throw new Error("not streamed");
      },
    };
    const agent = new Agent({
      name: "a",
      instructions: "Help.",
      model,
      tools: await openaiAgentsTools(plane),
    });
    const items = await openaiAgentsAttachments(plane);
    expect(items).toHaveLength(1);
    await run(agent, [{ role: "user", content: "hello" }, ...items]);
    expect(JSON.stringify(requests[0]!.input)).toContain("- alpha: The alpha skill.");
    expect(JSON.stringify(requests[0]!.tools)).not.toContain("alpha");
  });
});
