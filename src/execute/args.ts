import type { AnyTool, JsonSchema, ValidationIssue } from "../declare/types.js";
import { formatIssues } from "../declare/validate.js";
import { nearest } from "../util/nearest.js";
import { CallFailure } from "./failure.js";

/** Deeper than this is refused before any validator recurses into it (no stack overflow). */
export const MAX_ARGS_DEPTH = 64;

export type ArgsOutcome =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; code: "invalid_json" | "invalid_arguments"; message: string };

/**
 * Turns what the model sent into an arguments object, or says what to fix. Accepts JSON text or
 * an already-parsed value; empty text means no arguments (some providers send "" for `{}`).
 */
export function parseArgs(raw: unknown, maxBytes: number): ArgsOutcome {
  let value = raw;
  if (typeof raw === "string") {
    const bytes = Buffer.byteLength(raw);
    if (bytes > maxBytes) return tooBig(bytes, maxBytes);
    if (raw.trim() === "") return { ok: true, value: {} };
    try {
      value = JSON.parse(raw);
    } catch (error) {
      const reason = error instanceof RangeError ? "it is nested too deeply" : (error as Error).message;
      return {
        ok: false,
        code: "invalid_json",
        message: `the arguments are not valid JSON (${reason}). Send one JSON object, e.g. {"name": "value"}.`,
      };
    }
  } else if (raw === undefined || raw === null) {
    return { ok: true, value: {} };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const got = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    return {
      ok: false,
      code: "invalid_arguments",
      message: `(arguments): expected a JSON object of named parameters, received ${got}`,
    };
  }
  const deep = deeperThan(value, MAX_ARGS_DEPTH);
  if (deep !== undefined) {
    return {
      ok: false,
      code: "invalid_arguments",
      message: `${deep}: nested more than ${MAX_ARGS_DEPTH} levels deep; send a flatter value`,
    };
  }
  if (typeof raw !== "string") {
    const bytes = Buffer.byteLength(JSON.stringify(value) ?? "");
    if (bytes > maxBytes) return tooBig(bytes, maxBytes);
  }
  return { ok: true, value: value as Record<string, unknown> };
}

function tooBig(bytes: number, maxBytes: number): ArgsOutcome {
  return {
    ok: false,
    code: "invalid_arguments",
    message: `the arguments are ${bytes} bytes; the most a call may send is ${maxBytes} (tools.argsMaxBytes). Send less, e.g. in several calls.`,
  };
}

/** JSON pointer of the first value nested deeper than `limit`, found without recursion. */
function deeperThan(root: unknown, limit: number): string | undefined {
  const stack: Array<[unknown, number, string]> = [[root, 0, ""]];
  while (stack.length > 0) {
    const [node, depth, at] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth >= limit) return at;
    for (const [k, v] of Object.entries(node)) stack.push([v, depth + 1, `${at}/${escapePointer(k)}`]);
  }
  return undefined;
}

/**
 * Extra fields are refused, naming the nearest real parameter. The model saw the declared
 * properties; a key outside them is a typo or an invention, and silently dropping it (Zod's
 * default) or passing it on (JSON Schema's default) would run a call other than the one meant.
 * A schema that says `additionalProperties` (true or a schema) keeps its open shape.
 */
export function unknownFields(schema: JsonSchema, value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const walk = (node: JsonSchema | undefined, v: unknown, at: string) => {
    const s = deref(schema, node);
    if (s === undefined || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) {
      const items = s.items;
      if (items && typeof items === "object" && !Array.isArray(items)) {
        v.forEach((el, i) => {
          walk(items as JsonSchema, el, `${at}/${i}`);
        });
      }
      return;
    }
    const props = s.properties as Record<string, JsonSchema> | undefined;
    if (props === undefined || typeof props !== "object") return;
    for (const [k, child] of Object.entries(v)) {
      if (Object.hasOwn(props, k)) walk(props[k], child, `${at}/${escapePointer(k)}`);
      else if (s.additionalProperties === undefined) {
        const near = nearest(k, Object.keys(props));
        const hint = near.length > 0 ? `; did you mean ${near.map((n) => `"${n}"`).join(" or ")}?` : "";
        const known = Object.keys(props).join(", ") || "none";
        issues.push({
          path: `${at}/${escapePointer(k)}`,
          message: `is not a parameter${hint} (known: ${known})`,
        });
      }
    }
  };
  walk(schema, value, "");
  return issues;
}

/**
 * Rewrites validator messages so each names what was expected: a missing field says its type and
 * description, a wrong one says expected and received.
 */
export function explainIssues(
  schema: JsonSchema,
  value: unknown,
  issues: ValidationIssue[],
): ValidationIssue[] {
  return issues.map((issue) => {
    const found = lookup(value, issue.path);
    const expected = describeExpected(schemaAt(schema, issue.path));
    let message = issue.message.replace(/^Invalid input: /, "");
    if (!found.ok || /received undefined$/.test(message)) {
      message = `is required${expected ? `: expected ${expected}` : ""}`;
    } else if (/^must be /.test(message) || !/expected/.test(message)) {
      const got = received(found.value);
      message = `${message.replace(/^must be /, "expected ")}${expected && !message.includes(expected) ? ` (expected ${expected})` : ""}, received ${got}`;
    }
    return { path: issue.path, message };
  });
}

function received(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "string") return v.length > 40 ? `a string of ${v.length} characters` : JSON.stringify(v);
  if (typeof v === "object") return "object";
  return `${typeof v} ${String(v)}`;
}

export function describeExpected(s: JsonSchema | undefined): string {
  if (s === undefined) return "";
  const parts: string[] = [];
  if (Array.isArray(s.enum)) parts.push(`one of ${s.enum.map((e) => JSON.stringify(e)).join(", ")}`);
  else if ("const" in s) parts.push(JSON.stringify(s.const));
  else if (typeof s.type === "string" || Array.isArray(s.type)) parts.push([s.type].flat().join(" or "));
  else if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
    const alts = ((s.anyOf ?? s.oneOf) as JsonSchema[]).map((a) => describeExpected(a)).filter(Boolean);
    parts.push(alts.join(" or "));
  }
  if (typeof s.description === "string") {
    const d = s.description.length > 80 ? `${s.description.slice(0, 79)}…` : s.description;
    parts.push(`(${d})`);
  }
  return parts.join(" ");
}

function schemaAt(root: JsonSchema, pointer: string): JsonSchema | undefined {
  let node: JsonSchema | undefined = deref(root, root);
  for (const key of segments(pointer)) {
    if (node === undefined) return undefined;
    const props = node.properties as Record<string, JsonSchema> | undefined;
    if (props && Object.hasOwn(props, key)) node = deref(root, props[key]);
    else if (node.items && typeof node.items === "object" && /^\d+$/.test(key))
      node = deref(root, node.items as JsonSchema);
    else return undefined;
  }
  return node;
}

function deref(root: JsonSchema, node: JsonSchema | undefined): JsonSchema | undefined {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === "string" && hops < 8; hops++) {
    const ref: string = current.$ref as string;
    if (!ref.startsWith("#")) return undefined;
    let target: unknown = root;
    for (const key of segments(ref.slice(1))) target = (target as Record<string, unknown> | undefined)?.[key];
    current = target as JsonSchema | undefined;
  }
  return current;
}

function lookup(value: unknown, pointer: string): { ok: true; value: unknown } | { ok: false } {
  let node = value;
  for (const key of segments(pointer)) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return { ok: false };
    node = (node as Record<string, unknown>)[key];
  }
  return { ok: true, value: node };
}

function segments(pointer: string): string[] {
  if (pointer === "" || pointer === "/") return pointer === "/" ? [""] : [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * The arguments against the tool's schema, every fault at once (a field outside the declared
 * properties is one); returns the validated value or throws `invalid_arguments` saying what to fix.
 */
export function checkArguments(tool: AnyTool, value: Record<string, unknown>): Record<string, unknown> {
  const extra = unknownFields(tool.parameters, value);
  const checked = tool.validateInput(value);
  const issues = [...extra, ...(checked.ok ? [] : explainIssues(tool.parameters, value, checked.issues))];
  if (issues.length > 0 || !checked.ok) {
    throw new CallFailure(
      "invalid_arguments",
      `invalid arguments for ${tool.name}:\n${formatIssues(issues)}\nFix ${issues.length === 1 ? "this field" : "these fields"} and call ${tool.name} again.`,
    );
  }
  return checked.value as Record<string, unknown>;
}
