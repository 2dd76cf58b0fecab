// toolplane serve over examples/mcp-everything, driven by the SDK client: approvals put to the
// client's user through elicitation, skill bundles as resources (with the files an untrusted
// bundle may hold), subscriptions, skill prompts with arguments, completion, and a PNG through read.
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeTree } from "../helpers/tmp.js";
import { everythingProject } from "./everything-fixture.js";
import { type ServeHttp, startServeHttp } from "./serve-process.js";

const SECRET = "PLANTED-SECRET-7f3a";
let server: ServeHttp;
let repo: string;
const clients: Client[] = [];

beforeAll(async () => {
  const fixture = everythingProject();
  repo = fixture.repo;
  const outside = tempDir("tp-outside-");
  writeFileSync(path.join(outside, "secret.txt"), `${SECRET}\n`);
  const bundle = path.join(repo, ".toolplane", "skills", "style-guide");
  symlinkSync(path.join(outside, "secret.txt"), path.join(bundle, "escape.md"));
  execFileSync("mkfifo", [path.join(bundle, "pipe.md")]);
  writeFileSync(path.join(bundle, "huge.bin"), "");
  truncateSync(path.join(bundle, "huge.bin"), 9 * 1024 * 1024);
  writeTree(repo, {
    "guarded/note.txt": "behind an ask\n",
    ".toolplane/config.json": JSON.stringify({
      tools: { modules: ["tools.mjs"] },
      permissions: { rules: [{ effect: "ask", path: "guarded/**" }] },
    }),
  });
  server = await startServeHttp(repo, fixture.env, {
    args: ["--no-auth", "--set", "serve.askTimeoutMs=1000"],
  });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await server?.stop();
});

/** A client; with `elicit`, it declares elicitation and answers with it. */
async function connect(elicit?: (message: string) => Promise<{ action: "accept" | "decline" | "cancel" }>) {
  const client = new Client({ name: "t", version: "1" }, { capabilities: elicit ? { elicitation: {} } : {} });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (req) => elicit(req.params.message));
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  clients.push(client);
  return client;
}

const textOf = (r: unknown) =>
  ((r as { content: Array<{ type: string; text?: string }> }).content ?? [])
    .map((b) => b.text ?? `[${b.type}]`)
    .join("\n");

describe("toolplane serve: approvals through elicitation", () => {
  it("asks the client's user (what, why, the rule); accept runs the call, decline denies it", async () => {
    const asked: string[] = [];
    let answer: "accept" | "decline" = "accept";
    const client = await connect(async (message) => {
      asked.push(message);
      return { action: answer };
    });
    const ok = await client.callTool({ name: "read", arguments: { path: "guarded/note.txt" } });
    expect(ok.isError).toBe(false);
    expect(textOf(ok)).toContain("behind an ask");
    expect(asked[0]).toContain("read needs your approval");
    expect(asked[0]).toContain('{"effect":"allow","action":"read","path":"guarded/note.txt"}');

    answer = "decline";
    const no = await client.callTool({ name: "read", arguments: { path: "guarded/note.txt" } });
    expect(no.isError).toBe(true);
    expect(textOf(no)).toMatch(/The user declined it\. To allow it, restart toolplane serve with --yes/);
    expect(textOf(no)).not.toContain("behind an ask");
  });

  it("a client that cannot ask, or no answer in time, is a denial that says how to allow the call", async () => {
    const plain = await connect();
    const denied = await plain.callTool({ name: "read", arguments: { path: "guarded/note.txt" } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/cannot ask its user.*--yes.*permission rule/s);

    const silent = await connect(() => new Promise(() => {}));
    const late = await silent.callTool({ name: "read", arguments: { path: "guarded/note.txt" } });
    expect(late.isError).toBe(true);
    expect(textOf(late)).toMatch(/No answer came within 1000 ms \(serve.askTimeoutMs\)/);
  });
});

describe("toolplane serve: skills as resources and prompts", () => {
  it("lists one resource per skill and reads bundle files, text and binary", async () => {
    const client = await connect();
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(["skill://greet/SKILL.md", "skill://style-guide/SKILL.md"]));
    expect(uris.filter((u) => u.startsWith("skill://"))).toHaveLength(2);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain("skill://{name}/{+path}");

    const ref = await client.readResource({ uri: "skill://style-guide/reference.md" });
    expect(ref.contents[0]).toMatchObject({
      mimeType: "text/markdown",
      text: expect.stringContaining("Short sentences"),
    });
    const logo = await client.readResource({ uri: "skill://style-guide/logo.png" });
    expect(logo.contents[0]).toMatchObject({ mimeType: "image/png" });
    expect(
      Buffer.from((logo.contents[0] as { blob: string }).blob, "base64")
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
  });

  it("refuses a symlink out of the bundle, a FIFO, a huge file and a climbing path, at once", async () => {
    const client = await connect();
    const started = Date.now();
    const read = (rel: string) => client.readResource({ uri: `skill://style-guide/${rel}` });
    await expect(read("escape.md")).rejects.toThrow(/points outside the bundle/);
    await expect(read("escape.md")).rejects.not.toThrow(SECRET);
    await expect(read("pipe.md")).rejects.toThrow(/not a regular file/);
    await expect(read("huge.bin")).rejects.toThrow(/9437184 bytes, over the 8388608/);
    await expect(read("../greet/SKILL.md")).rejects.toThrow(/not a path inside the bundle/);
    await expect(client.subscribeResource({ uri: "skill://style-guide/escape.md" })).rejects.toThrow(
      /outside the bundle/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("notifies a subscriber when the watched file changes, and stops after unsubscribe", async () => {
    const client = await connect();
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    const uri = "skill://style-guide/reference.md";
    await client.subscribeResource({ uri });
    appendFileSync(
      path.join(repo, ".toolplane", "skills", "style-guide", "reference.md"),
      "- One more rule.\n",
    );
    await expect.poll(() => updated, { timeout: 5000 }).toEqual([uri]);
    await client.unsubscribeResource({ uri });
  });

  it("serves a skill's declared arguments as prompt arguments, substituted, and completes their values", async () => {
    const client = await connect();
    const { prompts } = await client.listPrompts();
    expect(prompts.find((p) => p.name === "greet")?.arguments).toEqual([
      { name: "person", description: "who to greet", required: true },
      { name: "tone", description: "how it should sound", required: false },
    ]);
    const got = await client.getPrompt({ name: "greet", arguments: { person: "Ada", tone: "warm" } });
    expect(got.messages[0]?.content).toMatchObject({
      type: "text",
      text: expect.stringContaining("Write a short warm greeting for Ada."),
    });
    await expect(client.getPrompt({ name: "greet", arguments: { tone: "warm" } })).rejects.toThrow(
      /needs "person"/,
    );

    const tone = await client.complete({
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "tone", value: "f" },
    });
    expect(tone.completion.values).toEqual(["formal"]);
    const template = { type: "ref/resource" as const, uri: "skill://{name}/{+path}" };
    const names = await client.complete({ ref: template, argument: { name: "name", value: "st" } });
    expect(names.completion.values).toEqual(["style-guide"]);
    const files = await client.complete({
      ref: template,
      argument: { name: "path", value: "re" },
      context: { arguments: { name: "style-guide" } },
    });
    expect(files.completion.values).toEqual(["reference.md"]);
  });

  it("a bundle past the walk bound completes paths from a bounded walk", async () => {
    const big = path.join(repo, ".toolplane", "skills", "big");
    mkdirSync(path.join(big, "data"), { recursive: true });
    writeFileSync(path.join(big, "SKILL.md"), "---\nname: big\ndescription: a large bundle\n---\nbody\n");
    // past BUNDLE_WALK_MAX_ENTRIES (20,000)
    execFileSync("sh", ["-c", "seq 0 20999 | sed 's/^/f/; s/$/.txt/' | xargs touch"], {
      cwd: path.join(big, "data"),
    });
    const client = await connect();
    await expect
      .poll(
        async () => (await client.listResources()).resources.some((r) => r.uri === "skill://big/SKILL.md"),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
    const files = await client.complete({
      ref: { type: "ref/resource", uri: "skill://{name}/{+path}" },
      argument: { name: "path", value: "data/f1" },
      context: { arguments: { name: "big" } },
    });
    expect(files.completion.values.length).toBeLessThanOrEqual(100);
    expect(files.completion.values.every((v) => v.startsWith("data/f1"))).toBe(true);
  });
});

describe("toolplane serve: tool results", () => {
  it("read of a PNG comes back as MCP image content", async () => {
    const client = await connect();
    const result = await client.callTool({
      name: "read",
      arguments: { path: ".toolplane/skills/style-guide/logo.png" },
    });
    expect(result.isError).toBe(false);
    // a line naming the file, then the picture itself
    expect(result.content).toEqual([
      { type: "text", text: expect.stringContaining("logo.png (image/png, 69 bytes)") },
      { type: "image", mimeType: "image/png", data: expect.stringMatching(/^iVBORw0KGgo/) },
    ]);
  });
});
