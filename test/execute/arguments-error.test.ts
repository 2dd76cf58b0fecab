import { describe, expect, it } from "vitest";
import { ArgumentsError, defineTool } from "../../src/declare/index.js";
import type { AskRequest } from "../../src/execute/index.js";
import { testHost } from "../helpers/host.js";

// A tool's own refusal of arguments its schema accepts: the model reads it as it reads a schema's
// refusal (invalid_arguments), not as the tool failing, and nothing is asked first.
const runs: string[] = [];
const sized = defineTool({
  name: "store_blob",
  description: "Store a blob.",
  parameters: { type: "object", properties: { blob: { type: "string" } }, required: ["blob"] },
  output: { schema: { type: "string" }, render: (v: string) => v },
  permission: {
    action: "write",
    patterns: () => ["blob"],
    needs: (a) => {
      if (String(a.blob).length > 10)
        throw new ArgumentsError(`blob is ${String(a.blob).length} characters; send at most 10`);
      return [{ action: "write", patterns: ["blob"] }];
    },
  },
  execute: (a) => {
    if (a.blob === "late") throw new ArgumentsError("blob may not be 'late'");
    if (a.blob === "boom") throw new Error("disk full");
    runs.push(String(a.blob));
    return "stored";
  },
});

describe("ArgumentsError", () => {
  const asked: AskRequest[] = [];
  const { host } = testHost([sized], {
    ask: (r) => {
      asked.push(r);
      return true;
    },
  });
  const call = (blob: string) => host.call({ tool: "store_blob", args: { blob } });

  it("from permission.needs: invalid_arguments with its message, before anything is asked", async () => {
    const r = await call("x".repeat(11));
    expect(r.error).toEqual({
      code: "invalid_arguments",
      message: "invalid arguments for store_blob: blob is 11 characters; send at most 10",
    });
    expect(asked).toEqual([]);
    expect(runs).toEqual([]);
  });

  it("from execute: invalid_arguments too; any other error stays a tool error", async () => {
    expect((await call("late")).error).toEqual({
      code: "invalid_arguments",
      message: "invalid arguments for store_blob: blob may not be 'late'",
    });
    expect((await call("boom")).error?.code).toBe("tool_error");
    expect((await call("ok")).isError).toBe(false);
    expect(runs).toEqual(["ok"]);
  });
});
