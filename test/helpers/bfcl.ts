import { readFileSync } from "node:fs";
import path from "node:path";
import type { JsonSchema } from "../../src/declare/types.js";
import { findDataDir } from "./data.js";

const data = findDataDir();
/** The BFCL folder of the shared data; undefined without it (the tests that read it skip). */
export const BFCL_DIR: string | undefined = data === undefined ? undefined : path.join(data, "bfcl");
const FILES = ["BFCL_v4_simple_python.json", "BFCL_v4_multiple.json", "BFCL_v4_irrelevance.json"];

export interface BfclFunction {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** Every function offered in BFCL (JSON Lines despite `.json`), read in place, first of each name. */
export function bfclFunctions(): BfclFunction[] {
  const seen = new Map<string, BfclFunction>();
  for (const file of FILES) {
    if (BFCL_DIR === undefined) throw new Error("no shared data folder: check BFCL_DIR before calling");
    for (const line of readFileSync(path.join(BFCL_DIR, file), "utf8").split("\n")) {
      if (line.trim() === "") continue;
      for (const fn of JSON.parse(line).function as Array<{
        name: string;
        description: string;
        parameters: unknown;
      }>) {
        if (!seen.has(fn.name))
          seen.set(fn.name, {
            name: fn.name,
            description: fn.description,
            parameters: fromBfclDialect(fn.parameters) as JsonSchema,
          });
      }
    }
  }
  return [...seen.values()];
}

/** BFCL writes Python type names: dict -> object, float -> number, tuple -> array, any -> no type. */
export function fromBfclDialect(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fromBfclDialect);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "type" && typeof v === "string") {
      const t = { dict: "object", float: "number", tuple: "array", any: undefined }[v as "dict"] ?? v;
      if (v === "any") continue;
      out.type = t;
    } else if (k === "properties" && v !== null && typeof v === "object") {
      out.properties = Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, fromBfclDialect(pv)]));
    } else out[k] = fromBfclDialect(v);
  }
  return out;
}
