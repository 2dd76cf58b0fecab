import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { homedir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODING_ACTION_DEFAULTS } from "../../../src/assemble/policy.js";
import type { PermissionRule } from "../../../src/permissions/index.js";
import { bashTool } from "../../../src/tools/bash/tool.js";
import { sandboxSupport } from "../../../src/tools/sandbox/bwrap.js";
import { testHost, textOf } from "../../helpers/host.js";
import { processesWith } from "../../helpers/processes.js";

const support = sandboxSupport();
const missing = support.available ? "" : ` (SKIPPED: ${support.reason}; .ci/run installs it)`;
if (!support.available) process.stderr.write(`sandbox tests skipped: ${support.reason}\n`);

// every command and every write allowed: what stops a write now is the sandbox alone
const ALL: PermissionRule[] = [
  { effect: "allow", action: "command" },
  { effect: "allow", action: "write" },
];

function sandboxed(config: Record<string, unknown> = {}) {
  return testHost([bashTool()], {
    rules: ALL,
    policy: { actionDefaults: CODING_ACTION_DEFAULTS },
    config: { "tools.sandbox": "workspace-write", ...config },
    // constructs outside the classifier's subset ask: approved, so the sandbox is what is tested
    ask: () => true,
  });
}
const run = (h: ReturnType<typeof sandboxed>, command: string) =>
  h.host.call({ tool: "bash", args: { command } });

describe(`the bubblewrap sandbox${missing}`, () => {
  let server: net.Server;
  let port = 0;
  beforeAll(async () => {
    server = net.createServer((s) => {
      s.on("error", () => {});
      s.end("hello\n");
    });
    await new Promise<void>((res) => server.listen(0, "127.0.0.1", res));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((res) => server.close(() => res())));

  it.skipIf(!support.available)(
    "a write outside the workspace fails inside it, even when permissions allowed it",
    async () => {
      const h = sandboxed();
      // not under /tmp, /var/tmp or /run: the sandbox has its own of those, so a path there would
      // fail for another reason
      const dir = mkdtempSync(path.join(homedir(), ".tp-outside-"));
      const outside = path.join(dir, "escaped.txt");
      // awk's own output file is not something the classifier sees: only the sandbox can stop it;
      // the folder is not even there inside (only the system, the workspace and toolchains are)
      const r = await run(h, `awk 'BEGIN { print "x" > "${outside}" }'; echo "status $?"`);
      expect(r.isError).toBe(false);
      expect(textOf(r)).toMatch(/No such file or directory/);
      expect(existsSync(outside)).toBe(false);
      rmSync(dir, { recursive: true });
      // the workspace itself is writable
      const inside = await run(h, 'awk \'BEGIN { print "x" > "in.txt" }\' && cat in.txt');
      expect(readFileSync(path.join(h.workspace, "in.txt"), "utf8")).toBe("x\n");
      expect(textOf(inside)).toContain("[exit code 0]");
    },
  );

  it.skipIf(!support.available)("read-only leaves nothing writable, not even the workspace", async () => {
    const h = sandboxed({ "tools.sandbox": "read-only" });
    const r = await run(h, "node -e \"require('fs').writeFileSync('x.txt', 'x')\"");
    expect(textOf(r)).toMatch(/EROFS|read-only/i);
    expect(existsSync(path.join(h.workspace, "x.txt"))).toBe(false);
  });

  it.skipIf(!support.available)("/tmp is private: nothing written there is seen outside", async () => {
    const h = sandboxed();
    const name = `tp-private-${process.pid}-${Date.now()}`;
    const r = await run(h, `echo x > /tmp/${name} && cat /tmp/${name}`);
    expect(r.isError).toBe(false);
    expect(existsSync(`/tmp/${name}`)).toBe(false);
  });

  it.skipIf(!support.available)("refuses the network unless tools.sandboxNetwork is set", async () => {
    const probe = `node -e "require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('connected'); process.exit(0) }).on('error', (e) => { console.log('refused', e.code); process.exit(7) })"`;
    const closed = await run(sandboxed(), probe);
    expect(textOf(closed)).toMatch(/refused E[A-Z]+/);
    expect(textOf(closed)).toContain("[exit code 7]");
    const open = await run(sandboxed({ "tools.sandboxNetwork": true }), probe);
    expect(textOf(open)).toContain("connected");
  });

  it.skipIf(!support.available)("a fork bomb is stopped by the timeout, every process of it", async () => {
    const h = sandboxed({ "tools.timeoutMs": 3000 });
    // bounded on purpose (127 processes, each then sleeping) so a shared machine is never at risk;
    // what is tested is that the timeout reaches every process it forked, in the background too
    const marker = `${Math.floor(Math.random() * 1e6) + 1000}.75`;
    const bomb = `b() { if [ "$1" -gt 0 ]; then b $(($1 - 1)) & b $(($1 - 1)) & fi; exec sleep ${marker}; }; b 6`;
    const r = await run(h, bomb);
    expect(r.error?.code).toBe("timeout");
    await new Promise((res) => setTimeout(res, 500));
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  });
});

describe("without bubblewrap", () => {
  it("a command asks (and says how to install it) instead of running unsandboxed silently", async () => {
    const before = process.env.TOOLPLANE_BWRAP;
    process.env.TOOLPLANE_BWRAP = "/nonexistent/bwrap";
    try {
      const h = testHost([bashTool()], {
        rules: ALL,
        policy: { actionDefaults: CODING_ACTION_DEFAULTS },
        config: { "tools.sandbox": "workspace-write" },
      });
      const r = await run(h, "echo hi");
      expect(r.error?.code).toBe("permission_denied");
      expect(r.error?.message).toMatch(/without a sandbox.*apt-get install bubblewrap/);
      // approved, it runs (unsandboxed), and says so in its value
      const approved = testHost([bashTool()], {
        rules: ALL,
        config: { "tools.sandbox": "workspace-write" },
        ask: () => true,
      });
      const ran = await approved.host.call({ tool: "bash", args: { command: "echo hi" } });
      expect(textOf(ran)).toContain("hi");
      // tools.sandbox=off is the user's own choice: no ask
      const off = await run(sandboxed({ "tools.sandbox": "off" }), "echo hi");
      expect(off.isError).toBe(false);
    } finally {
      if (before === undefined) delete process.env.TOOLPLANE_BWRAP;
      else process.env.TOOLPLANE_BWRAP = before;
    }
  });
});
