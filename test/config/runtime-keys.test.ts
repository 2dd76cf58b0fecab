// Run-time keys change how a call runs and never enter a request: changing any one of them leaves
// every provider's rendered catalog byte for byte the same (tools, system text, prefixHash), with
// a tool module in the project that would like to read them (its factory gets assembly keys only).
import { describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import { OPEN_TIME_KEYS } from "../../src/assemble/set-key.js";
import { CONFIG_KEYS } from "../../src/config/index.js";
import { supportedProviders } from "../../src/render/index.js";
import { tempProject } from "../helpers/tmp.js";

/** Another valid value of each string, list and object run-time key (a new key must be added here). */
const OTHER: Record<string, unknown> = {
  "results.spillDir": "/tmp/toolplane-runtime-key-test",
  // a rule that asks about some calls; one that denies a whole tool is assembly (it leaves the catalog)
  "permissions.rules": [{ effect: "ask", action: "write", pattern: "*.lock" }],
  "permissions.defaultEffect": "ask",
  "permissions.additionalDirectories": ["/tmp"],
  "permissions.askFiles": ["*.secret"],
  "tools.timeouts": { read: 5000, greedy: 10 },
  "tools.sandbox": "read-only",
  "tools.shellEnv": ["MY_VAR", "PROJECT_*"],
  // hooks run around calls and never enter a request: the catalog and prefixHash stay as they were
  "hooks.PreToolUse": [{ matcher: "Bash|mcp__.*", hooks: [{ type: "command", command: "exit 0" }] }],
  "hooks.PermissionRequest": [{ hooks: [{ type: "command", command: "exit 0", timeout: 5 }] }],
  "hooks.PostToolUse": [{ matcher: "*", hooks: [{ type: "command", command: "exit 0" }] }],
  "hooks.PostToolUseFailure": [{ matcher: "read", hooks: [{ type: "command", command: "exit 0" }] }],
};

/** Another valid value for a run-time key: a flag flipped, a number moved, or OTHER's. */
function changed(key: string, value: unknown): unknown {
  if (typeof value === "boolean") return !value;
  if (typeof value === "number") return value + 1;
  return OTHER[key];
}

const greedy = `export const tools = ({ config }) => [{
  name: "greedy",
  description: "Reads every key it is given (checksum " + [...JSON.stringify(config)].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) + ").",
  parameters: { type: "object", properties: {} },
  output: { schema: { type: "string" }, render: (v) => v },
  execute: () => "ran",
}];`;

describe("run-time keys never reach a rendered request", () => {
  it("changing any run-time key (numbers, flags, strings, lists, objects) leaves every provider's catalog the same", async () => {
    const p = tempProject(
      {
        ".toolplane/config.json": JSON.stringify({ tools: { modules: ["greedy.mjs"] } }),
        "greedy.mjs": greedy,
      },
      { trust: true },
    );
    const render = async (set: string[]) => {
      const plane = await Toolplane.open({ cwd: p.repo, env: p.env, bundledSkills: null, set });
      try {
        const out: Record<string, unknown> = {};
        for (const provider of supportedProviders()) {
          const c = await plane.catalog(provider);
          out[provider] = {
            tools: c.tools,
            system: c.system,
            attachments: c.attachments,
            prefixHash: c.prefixHash,
            deferred: c.deferred,
          };
        }
        return JSON.stringify(out);
      } finally {
        await plane.close();
      }
    };
    const base = await render([]);
    expect(base).toContain("greedy");
    const tried: string[] = [];
    const runtime = (
      Object.entries(CONFIG_KEYS) as Array<[string, { kind: string; default: unknown }]>
    ).filter(([, spec]) => spec.kind === "run-time");
    for (const [key, spec] of runtime) {
      const value = changed(key, spec.default);
      expect(value, `give ${key} another value in OTHER`).not.toBeUndefined();
      expect(JSON.stringify(value), key).not.toBe(JSON.stringify(spec.default));
      tried.push(key);
      expect(await render([`${key}=${JSON.stringify(value)}`]), key).toBe(base);
    }
    // every run-time key, whatever its kind of value
    expect(tried).toEqual(runtime.map(([key]) => key));
    // and all of them at once, through set() on a live plane
    const live = await Toolplane.open({ cwd: p.repo, env: p.env, bundledSkills: null });
    try {
      const seen = async () => {
        const c = await live.catalog("anthropic");
        return JSON.stringify([c.tools, c.system, c.attachments, c.deferred, c.prefixHash]);
      };
      const before = await seen();
      for (const [key, spec] of runtime)
        if (!(OPEN_TIME_KEYS as readonly string[]).includes(key)) live.set(key, changed(key, spec.default));
      expect(await seen()).toBe(before);
    } finally {
      await live.close();
    }
  });
});
