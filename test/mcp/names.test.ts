import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { qualifyToolNames, serverKey } from "../../src/mcp/names.js";

describe("qualified MCP tool names", () => {
  it("keeps clean names as mcp__<server>__<tool>", () => {
    expect(qualifyToolNames("github", ["create_issue", "list-prs"])).toEqual(
      new Map([
        ["create_issue", "mcp__github__create_issue"],
        ["list-prs", "mcp__github__list-prs"],
      ]),
    );
  });

  it("sanitises, and a collision gives the sanitised one a hash while the exact name keeps its own", () => {
    const names = qualifyToolNames("s", ["a_b", "a.b", "a/b"]);
    expect(names.get("a_b")).toBe("mcp__s__a_b");
    expect(names.get("a.b")).toMatch(/^mcp__s__a_b_[0-9a-f]{6}$/);
    expect(names.get("a/b")).toMatch(/^mcp__s__a_b_[0-9a-f]{6}$/);
    expect(names.get("a.b")).not.toBe(names.get("a/b"));
  });

  it("a server name that needs sanitising carries a hash, so a.b and a_b never share names", () => {
    expect(serverKey("a_b")).toBe("a_b");
    expect(serverKey("a.b")).toMatch(/^a_b_[0-9a-f]{4}$/);
  });

  it("any raw names: valid, at most 64 chars, unique, and independent of list order", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 90 }), { maxLength: 12 }),
        (server, raws) => {
          const names = qualifyToolNames(server, raws);
          const values = [...names.values()];
          for (const n of values) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
          expect(new Set(values).size).toBe(values.length);
          const reversed = qualifyToolNames(server, [...raws].reverse());
          for (const raw of raws) expect(reversed.get(raw)).toBe(names.get(raw));
        },
      ),
    );
  });
});
