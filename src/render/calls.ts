import type { JsonSchema } from "../declare/types.js";
import { conversionsForTool } from "./conversions.js";
import { restoreArgs } from "./restore-args.js";
import type { Catalog } from "./types.js";

const NULLED = "optional property made required and nullable";

/**
 * A call the model made against a rendered catalog, mapped back to the tool's own name and
 * argument shape before validation: a renamed tool gets its name back; a `null` the model sent
 * for an optional property that strict mode made nullable means "left out" and is removed; a
 * Gemini enum value sent as a string gets its original (number, boolean) value back. `args` may
 * be the JSON text a provider returns (it comes back parsed when it is a JSON object; text that
 * is not is returned as it was, for the host to refuse). With the tool's `parameters` the
 * arguments are restored from the schema itself (restoreArgs: unions and references included);
 * without, from the catalog's conversion notes. The execution host does this for every call
 * (`plane.host()`), so a harness needs it only to read a call before the host runs it. Pure.
 */
export function restoreCall(
  catalog: Pick<Catalog, "report">,
  wireName: string,
  args: unknown,
  parameters?: JsonSchema,
): { name: string; args: unknown } {
  const name = catalog.report.renamed.find((r) => r.wireName === wireName)?.name ?? wireName;
  const parsed = typeof args === "string" ? parsedObject(args) : args;
  if (parsed === undefined) return { name, args };
  if (parameters) return { name, args: restoreArgs(parameters, parsed) };
  let out: unknown = parsed;
  // without the schema: the notes say where strict mode made an optional property nullable
  for (const note of conversionsForTool(catalog.report.conversions, name))
    if (note.change.startsWith(NULLED))
      out = edit(out, segments(note.path), (parent, key) => {
        if (parent[key] === null) delete parent[key];
      });
  return { name, args: out };
}

/** JSON text of an object, parsed; undefined for anything else (left to the host to refuse). */
function parsedObject(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
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
