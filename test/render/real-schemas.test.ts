import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseRawSchema } from "../../src/declare/json-schema.js";
import type { ToolProjection } from "../../src/declare/project.js";
import { renderTool, supportedProviders } from "../../src/render/index.js";
import type { SchemaConversion } from "../../src/render/types.js";
import { BFCL_DIR, bfclFunctions } from "../helpers/bfcl.js";
import { ROOT } from "../helpers/cli.js";
import { DATA_MISSING } from "../helpers/data.js";
import { CHECKERS } from "../helpers/provider-rules.js";
import { tempDir } from "../helpers/tmp.js";

async function listTools(pkg: string, args: string[]): Promise<ToolProjection[]> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(ROOT, "node_modules", pkg, "dist", "index.js"), ...args],
    stderr: "ignore",
  });
  const client = new Client({ name: "toolplane-test", version: "0.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    return tools.map((t) => ({
      name: t.name,
      description: t.description ?? "",
      parameters: normaliseRawSchema(t.inputSchema as Record<string, unknown>),
    }));
  } finally {
    await client.close();
  }
}

function checkAll(tools: readonly ToolProjection[]) {
  const failures: string[] = [];
  let nonStrict = 0;
  for (const provider of supportedProviders()) {
    for (const tool of tools) {
      const before = JSON.stringify(tool.parameters);
      const notes: SchemaConversion[] = [];
      const wire = renderTool(provider, tool, notes) as Record<string, unknown>;
      expect(JSON.stringify(tool.parameters), "conversion must not mutate the tool").toBe(before);
      for (const v of CHECKERS[provider]!(wire)) failures.push(`${provider} ${tool.name} ${v}`);
      const fn = (wire.function ?? wire) as Record<string, unknown>;
      if (provider.startsWith("openai") && fn.strict === false) {
        nonStrict++;
        expect(notes.some((n) => n.change.startsWith("strict mode off"))).toBe(true);
      }
    }
  }
  return { failures, nonStrict };
}

describe("real-world schemas pass each provider's rule checker", () => {
  const servers: Record<string, ToolProjection[]> = {};
  beforeAll(async () => {
    servers.everything = await listTools("@modelcontextprotocol/server-everything", ["stdio"]);
    servers.filesystem = await listTools("@modelcontextprotocol/server-filesystem", [tempDir("tp-fs-")]);
  });
  afterAll(() => {});

  it("@modelcontextprotocol/server-everything", () => {
    expect(servers.everything!.length).toBeGreaterThan(5);
    const { failures } = checkAll(servers.everything!);
    expect(failures).toEqual([]);
  });

  it("@modelcontextprotocol/server-filesystem", () => {
    expect(servers.filesystem!.map((t) => t.name)).toContain("read_text_file");
    const { failures } = checkAll(servers.filesystem!);
    expect(failures).toEqual([]);
  });

  it.skipIf(BFCL_DIR === undefined)(
    `every BFCL function, after its dict/float dialect is converted${BFCL_DIR ? "" : ` [${DATA_MISSING}]`}`,
    () => {
      const fns = bfclFunctions();
      expect(fns.length).toBeGreaterThan(800);
      const { failures, nonStrict } = checkAll(fns);
      expect(failures.slice(0, 20)).toEqual([]);
      // strict mode has to be given up only where a schema cannot be expressed (an untyped value)
      expect(nonStrict).toBeLessThan(fns.length * 2 * 0.05);
    },
  );
});
