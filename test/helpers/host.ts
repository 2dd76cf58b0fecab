import path from "node:path";
import { CONFIG_KEY_NAMES, CONFIG_KEYS } from "../../src/config/index.js";
import type { AnyTool } from "../../src/declare/types.js";
import { type AskCallback, ExecutionHost, SpillStore } from "../../src/execute/index.js";
import type { PermissionPolicy, PermissionRule } from "../../src/permissions/index.js";
import { tempDir } from "./tmp.js";

export interface TestHostOptions {
  config?: Record<string, unknown>;
  rules?: PermissionRule[];
  policy?: Partial<PermissionPolicy>;
  workspace?: string;
  cwd?: string;
  ask?: AskCallback;
  namespace?: string;
  /** Folders inside the boundary besides the workspace (permissions.additionalDirectories). */
  extraRoots?: string[];
}

/** A host over the given tools with default run-time config, a temp workspace and spill dir. */
export function testHost(tools: AnyTool[], opts: TestHostOptions = {}) {
  const workspace = opts.workspace ?? tempDir("tp-ws-");
  const spillBase = path.join(tempDir("tp-spill-"), "spill");
  const spill = new SpillStore(spillBase, "test");
  const config: Record<string, unknown> = {};
  for (const key of CONFIG_KEY_NAMES) {
    if (CONFIG_KEYS[key].kind === "run-time") config[key] = CONFIG_KEYS[key].default;
  }
  Object.assign(config, opts.config);
  const policy: PermissionPolicy = {
    rules: (opts.rules ?? []).map((rule, i) => ({ rule, origin: `test rule #${i + 1}` })),
    defaultEffect: "allow",
    workspaceBoundary: true,
    askFiles: CONFIG_KEYS["permissions.askFiles"].default,
    caseInsensitive: false,
    ...opts.policy,
  };
  const host = new ExecutionHost({
    tools: () => ({ tools: tools.map((tool) => ({ tool, namespace: opts.namespace ?? "test" })) }),
    config,
    policy,
    cwd: opts.cwd ?? workspace,
    workspace,
    spill,
    ...(opts.extraRoots ? { extraRoots: opts.extraRoots } : {}),
    ...(opts.ask ? { ask: opts.ask } : {}),
  });
  return { host, workspace, spill, spillBase };
}

export function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((c) => c.text ?? "").join("\n");
}
