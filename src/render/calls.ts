import type { JsonSchema } from "../declare/types.js";
import { conversionsForTool } from "./conversions.js";
import { resolveLocalRef } from "./schema/refs.js";
import type { Catalog } from "./types.js";

const NULLED = "optional property made required and nullable";
const ENUM_STRINGS = "enum values written as strings";

/**
 * A call the model made against a rendered catalog, mapped back to the tool's own name and
 * argument shape before validation: a renamed tool gets its name back; a `null` the model sent
 * for an optional property that strict mode made nullable means "left out" and is removed; a
 * Gemini enum value sent as a string gets its original (number, boolean) value back. Pure.
 */
export function restoreCall(
  catalog: Pick<Catalog, "report">,
  wireName: string,
  args: unknown,
  parameters?: JsonSchema,
): { name: string; args: unknown } {
  const name = catalog.report.renamed.find((r) => r.wireName === wireName)?.name ?? wireName;
  let out = args;
  for (const note of conversionsForTool(catalog.report.conversions, name)) {
    if (note.change.startsWith(NULLED))
      out = edit(out, segments(note.path), (parent, key) => {
        if (parent[key] === null) delete parent[key];
      });
    else if (note.change === ENUM_STRINGS && parameters) {
      const schema = at(parameters, note.path.replace(/\/enum$/, ""));
      const values = Array.isArray(schema?.enum) ? (schema.enum as unknown[]) : [];
      out = edit(out, segments(note.path.replace(/\/enum$/, "")), (parent, key) => {
        const v = parent[key];
        const original = values.find(
          (o) => typeof v === "string" && typeof o !== "string" && JSON.stringify(o) === v,
        );
        if (original !== undefined) parent[key] = original;
      });
    }
  }
  return { name, args: out };
}

/** Schema pointer -> the argument path: `properties/x` is key x, `items` is every element. */
function segments(pointer: string): string[] {
  const raw =
    pointer === ""
      ? []
      : pointer
          .slice(1)
          .split("/")
          .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const out: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === "properties") out.push(`.${raw[++i]}`);
    else if (raw[i] === "items") out.push("[]");
    else return []; // anyOf branches and the like: not mapped
  }
  return out;
}

type Obj = Record<string, unknown>;

/** Copies `value` along `path` and applies `fn` to the last step's parent and key. */
function edit(value: unknown, path: readonly string[], fn: (parent: Obj, key: string) => void): unknown {
  if (path.length === 0 || value === null || typeof value !== "object") return value;
  const [step, ...rest] = path;
  if (step === "[]") return Array.isArray(value) ? value.map((v) => edit(v, rest, fn)) : value;
  if (Array.isArray(value)) return value;
  const key = step!.slice(1);
  if (!(key in value)) return value;
  const copy: Obj = { ...(value as Obj) };
  if (rest.length === 0) fn(copy, key);
  else copy[key] = edit(copy[key], rest, fn);
  return copy;
}

function at(schema: JsonSchema, pointer: string): Obj | undefined {
  return resolveLocalRef(schema, `#${pointer}`);
}
