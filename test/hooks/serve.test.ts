// Hooks through `toolplane serve`, called by the MCP SDK's own client: the same user hooks as the
// CLI test, and a PermissionRequest hook that answers the asks serve (without --yes) would deny.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../helpers/cli.js";
import { alive, hookedProject } from "./fixture.js";

const PERMISSION = `input=$(cat); case "$input" in *PR-ALLOW*) printf '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}' ;; *PR-DENY*) echo "PermissionRequest says no" >&2; exit 2 ;; esac`;
const SLOW = `case "$(cat)" in *SLOWME*) echo $$ > slow.pid; exec sleep 30 ;; esac`;

let client: Client;
let project: ReturnType<typeof hookedProject>;
let stderr = "";

beforeAll(async () => {
  project = hookedProject({
    PermissionRequest: [{ matcher: "Write", hooks: [{ type: "command", command: PERMISSION }] }],
  });
  const slow = [{ matcher: "Glob", hooks: [{ type: "command", command: SLOW, timeout: 1 }] }];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", "--cwd", project.repo, "--set", `hooks.PreToolUse=${JSON.stringify(slow)}`],
    env: project.env as Record<string, string>,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  client = new Client({ name: "hooks-test", version: "1" });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
});

type Content = Array<{ type: string; text?: string }>;
async function callTool(name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: args });
  return { isError: r.isError === true, text: (r.content as Content).map((c) => c.text ?? "").join("\n") };
}

describe("hooks through `toolplane serve`", () => {
  it("a block's stderr and a deny's reason reach the client's model; allow answers an ask, not a deny rule", async () => {
    const [blocked, denied, allowed, secret] = await Promise.all([
      callTool("bash", { command: "echo BLOCKME" }),
      callTool("bash", { command: "echo DENYME" }),
      callTool("write", { path: "allowed.txt", content: "ALLOWME" }),
      callTool("write", { path: "secret/s.txt", content: "ALLOWME" }),
    ]);
    expect(blocked).toMatchObject({
      isError: true,
      text: expect.stringMatching(/blocked by the PreToolUse hook .*: blocked: no BLOCKME here/),
    });
    expect(denied).toMatchObject({ isError: true, text: expect.stringMatching(/DENYME is not allowed/) });
    expect(allowed.isError, allowed.text).toBe(false);
    expect(readFileSync(path.join(project.repo, "allowed.txt"), "utf8")).toBe("ALLOWME");
    expect(secret).toMatchObject({ isError: true, text: expect.stringMatching(/secrets stay put/) });
  });

  it("updatedInput is checked again; additionalContext reaches the result; PermissionRequest answers asks serve would deny", async () => {
    const [rewritten, context, approved, refused, plain] = await Promise.all([
      callTool("bash", { command: "echo REWRITEME" }),
      callTool("read", { path: "CONTEXTME.txt" }),
      callTool("write", { path: "pr.txt", content: "PR-ALLOW" }),
      callTool("write", { path: "prd.txt", content: "PR-DENY" }),
      callTool("write", { path: "plain.txt", content: "nobody answers" }),
    ]);
    expect(rewritten).toMatchObject({
      isError: true,
      text: expect.stringMatching(/bash \(write\) needs approval for path "out.txt"/),
    });
    expect(existsSync(path.join(project.repo, "out.txt"))).toBe(false);
    expect(context.text).toMatch(/context\n[\s\S]*\[PreToolUse hook .* adds: remember the style guide\]/);
    expect(context.text).toMatch(/\[PostToolUse hook .* adds: post hook saw it\]/);
    expect(approved.isError, approved.text).toBe(false);
    expect(readFileSync(path.join(project.repo, "pr.txt"), "utf8")).toBe("PR-ALLOW");
    expect(refused).toMatchObject({
      isError: true,
      text: expect.stringMatching(
        /write was blocked by the PermissionRequest hook .*: PermissionRequest says no/,
      ),
    });
    expect(plain).toMatchObject({ isError: true, text: expect.stringMatching(/not approved/) });
    expect(existsSync(path.join(project.repo, "plain.txt"))).toBe(false);
  });

  it("a hook over its timeout is cut and named, and serve goes on", async () => {
    const cut = await callTool("glob", { pattern: "SLOWME*" });
    expect(cut.isError).toBe(true);
    expect(cut.text).toMatch(
      /PreToolUse hook `case .*` did not answer: did not finish within 1 s \(its timeout\)/,
    );
    expect(alive(Number(readFileSync(path.join(project.repo, "slow.pid"), "utf8")))).toBe(false);
    expect((await callTool("glob", { pattern: "*.txt" })).text).toContain("a.txt");
    expect(stderr).not.toMatch(/unhandled|TypeError/i);
  });
});
