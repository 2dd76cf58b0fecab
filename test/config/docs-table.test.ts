// docs/config.md's key table is the user's reference: every key is in it, with the kind and the
// default the code has, and it names no key the code does not have.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_KEYS } from "../../src/config/keys.js";
import { ROOT } from "../helpers/cli.js";

interface Row {
  kind: string;
  default: string;
}

/** `| \`key\` [/ \`key\` ...] | kind | default [/ default ...] | ... |` rows. */
function tableRows(): Map<string, Row> {
  const rows = new Map<string, Row>();
  const text = readFileSync(path.join(ROOT, "docs", "config.md"), "utf8");
  for (const line of text.split("\n")) {
    const m = /^\| ((?:`[^`]+`(?: \/ )?)+) \| ([^|]+) \| ([^|]*) \|/.exec(line);
    if (!m) continue;
    const keys = [...m[1]!.matchAll(/`([^`]+)`/g)].map((k) => k[1]!);
    if (!keys.every((k) => /^[a-z]+\.[A-Za-z.]+$/.test(k))) continue;
    const defaults = keys.length > 1 ? m[3]!.split(" / ") : [m[3]!];
    for (const [i, k] of keys.entries())
      rows.set(k, { kind: m[2]!.trim(), default: (defaults[i] ?? "").trim() });
  }
  return rows;
}

describe("docs/config.md's key table", () => {
  const rows = tableRows();
  const keys = Object.keys(CONFIG_KEYS) as Array<keyof typeof CONFIG_KEYS>;

  it("has a row for every key and none for a key that does not exist", () => {
    expect([...rows.keys()].sort()).toEqual([...keys].sort());
  });

  it("gives each key its kind, and its default where the row writes it as JSON", () => {
    let compared = 0;
    for (const key of keys) {
      const spec = CONFIG_KEYS[key] as { kind: string; default: unknown };
      const row = rows.get(key)!;
      expect(row.kind.replace(/\*$/, ""), key).toBe(spec.kind);
      let written: unknown;
      try {
        written = JSON.parse(row.default.replace(/`/g, ""));
      } catch {
        continue; // prose ("4 GiB", "`.env`, ...", "threshold"): read by a person
      }
      expect(written, key).toEqual(spec.default);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(30);
  });
});
