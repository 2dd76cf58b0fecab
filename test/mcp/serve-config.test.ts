// `toolplane serve` follows edits of its configuration files: a run-time key applies from the
// next call, an assembly key changes tools/list (with list_changed), a key read at start says to
// restart, and a file that does not load keeps the configuration as it was.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { CLI } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";
import { waitFor } from "./peers.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe("toolplane serve follows its configuration files", () => {
  it("run-time and assembly keys apply live; open-time keys and broken files are reported", async () => {
    const long = "x".repeat(400);
    const p = tempProject(
      {
        "long.txt": `${long}\n`,
        ".toolplane/config.json": JSON.stringify({ results: { lineMaxChars: 1000 } }),
      },
      { trust: true },
    );
    const configFile = path.join(p.repo, ".toolplane", "config.json");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", "--cwd", p.repo, "--set", "tools.examples=false"],
      env: p.env as Record<string, string>,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(transport);
    cleanup.push(() => client.close());
    let listChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged++;
    });
    const readText = async () =>
      JSON.stringify((await client.callTool({ name: "read", arguments: { path: "long.txt" } })).content);
    const names = async () => (await client.listTools()).tools.map((t) => t.name);
    expect(await readText()).toContain(long);
    const before = await client.listTools();

    // a run-time key: the next call cuts the line, tools/list is byte for byte the same
    writeFileSync(configFile, JSON.stringify({ results: { lineMaxChars: 100 } }));
    await waitFor("the reload", () => stderr.includes("configuration reloaded (results.lineMaxChars)"));
    expect(await readText()).not.toContain(long);
    expect(await client.listTools()).toEqual(before);

    // an assembly key: grep leaves the list, and the client is told
    writeFileSync(
      configFile,
      JSON.stringify({ results: { lineMaxChars: 100 }, tools: { disabled: ["grep"] } }),
    );
    await waitFor("list_changed", () => listChanged > 0);
    expect(await names()).not.toContain("grep");

    // a key read at start: nothing applied, and serve says to restart
    writeFileSync(
      configFile,
      JSON.stringify({
        results: { lineMaxChars: 1000 },
        tools: { disabled: ["grep"] },
        skills: { paths: ["more-skills"] },
      }),
    );
    await waitFor("the restart notice", () => stderr.includes("skills.paths changed: read at start only"));
    expect(await readText()).not.toContain(long);

    // a broken file: the configuration stays as it was
    writeFileSync(configFile, "{ not json");
    await waitFor("the load error", () => stderr.includes("the configuration did not load"));
    expect(await readText()).not.toContain(long);
    expect(await names()).not.toContain("grep");
  });
});
