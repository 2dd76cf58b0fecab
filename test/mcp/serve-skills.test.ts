import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { CLI } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const skill = (name: string, extra = "") =>
  `---\nname: ${name}\ndescription: The ${name} skill\n${extra}---\nDo the ${name} steps.\n`;

/** Counts notifications of one kind and resolves a promise on the next one. */
function counter() {
  let count = 0;
  const waiters: Array<() => void> = [];
  return {
    hit: () => {
      count++;
      for (const w of waiters.splice(0)) w();
    },
    get count() {
      return count;
    },
    next: (what: string, limitMs = 15_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${what} within ${limitMs} ms`)), limitMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

describe("toolplane serve: skills as prompts, watched", () => {
  it("serves user-invocable skills as prompts and announces changes to prompts and tools", async () => {
    const p = tempProject({
      ".toolplane/skills/deploy/SKILL.md": skill("deploy", "disable-model-invocation: true\n"),
    });
    const root = path.join(p.repo, ".toolplane", "skills");
    const client = new Client({ name: "test", version: "1" });
    // allowlist deferral with no resident tools, and the skill tool unmarked (built-ins are marked
    // never by default): it is then listed only while a skill is model-visible
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          CLI,
          "serve",
          "--cwd",
          p.repo,
          "--set",
          "defer.mode=allowlist",
          "--set",
          "tools.examples=false",
          "--set",
          'defer.tools={"skill":"auto"}',
        ],
        env: p.env as Record<string, string>,
        stderr: "pipe",
      }),
    );
    cleanup.push(() => client.close());
    const prompts = counter();
    const tools = counter();
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => prompts.hit());
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => tools.hit());
    const promptNames = async () => (await client.listPrompts()).prompts.map((x) => x.name);
    const toolNames = async () => (await client.listTools()).tools.map((x) => x.name);

    // a skill only a user may invoke is a prompt, though the model cannot load it
    expect(await promptNames()).toEqual(["deploy"]);
    expect(await toolNames()).not.toContain("skill");
    const got = await client.getPrompt({ name: "deploy", arguments: { arguments: "to staging" } });
    expect(got.messages[0]?.content).toEqual({
      type: "text",
      text: `Base directory for this skill: ${path.join(root, "deploy")}\n\nDo the deploy steps.\n\nARGUMENTS: to staging`,
    });

    const bothChanged = Promise.all([prompts.next("prompts/list_changed"), tools.next("tools/list_changed")]);
    mkdirSync(path.join(root, "review"));
    writeFileSync(path.join(root, "review", "SKILL.md"), skill("review"));
    await bothChanged;
    expect(await promptNames()).toEqual(["deploy", "review"]);
    expect(await toolNames()).toContain("skill");

    // the model may load it but a user may not invoke it: no prompt
    writeFileSync(path.join(root, "internal.md"), skill("internal", "user-invocable: false\n"));
    const removed = prompts.next("prompts/list_changed after a delete");
    rmSync(path.join(root, "review"), { recursive: true });
    await removed;
    expect(await promptNames()).toEqual(["deploy"]);
  });
});
