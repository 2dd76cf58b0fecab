import { Ajv } from "ajv";

/**
 * Rule checkers, one per provider, written from the providers' API documentation (not from our
 * adapters): each returns every rule a rendered tool breaks, as "path: rule" lines.
 *
 * - Anthropic Messages API, tool definitions: name matches ^[a-zA-Z0-9_-]{1,64}$; input_schema is a
 *   JSON Schema object with type "object"; oneOf/anyOf/allOf are not supported at its top level.
 * - OpenAI function calling (Chat Completions and Responses): name ^[a-zA-Z0-9_-]{1,64}$.
 *   Structured Outputs with strict: true: the root is an object (not anyOf); every object has
 *   additionalProperties: false and lists every property in required (optional = nullable);
 *   supported keywords only (string pattern/format, number multipleOf/minimum/maximum/
 *   exclusive*, array minItems/maxItems, enum, anyOf, $ref/$defs, description); format one of
 *   date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid; at most 5000 properties,
 *   10 levels of nesting and 1000 enum values.
 * - Gemini FunctionDeclaration: name starts with a letter or underscore, then a-z A-Z 0-9 _ . : -,
 *   at most 64; parameters is a select subset of the OpenAPI 3.0 Schema object: no $ref, $defs,
 *   oneOf, allOf, not, const, additionalProperties; type is one name (string, number, integer,
 *   boolean, array, object), null expressed with nullable; enum values are strings (for a
 *   number or integer with format "enum"); format "enum"/"date-time" for strings, float/double
 *   for numbers, int32/int64 for integers; an object type needs non-empty properties and
 *   required names among them; an array needs items.
 * - MCP tools/list: name 1-128 characters of A-Z a-z 0-9 _ - .; inputSchema is a JSON Schema
 *   object with type "object".
 */
export type Checker = (tool: unknown) => string[];

const ajv = new Ajv({ strict: false, allErrors: true, logger: false, validateFormats: false });
/** Valid against the JSON Schema meta-schema (draft-07, which is what ajv and our schemas use). */
function validJsonSchema(schema: unknown, path: string, out: string[]): void {
  const copy = JSON.parse(JSON.stringify(schema));
  delete copy.$schema;
  if (!ajv.validateSchema(copy)) out.push(`${path}: not a valid JSON Schema (${ajv.errorsText(ajv.errors)})`);
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

export const checkAnthropic: Checker = (tool) => {
  const out: string[] = [];
  const t = tool as Record<string, unknown>;
  if (typeof t.name !== "string" || !/^[a-zA-Z0-9_-]{1,64}$/.test(t.name))
    out.push(`/name: ${String(t.name)}`);
  if (typeof t.description !== "string") out.push("/description: missing");
  const s = t.input_schema;
  if (!isObj(s) || s.type !== "object") out.push("/input_schema: root must have type object");
  else {
    for (const k of ["oneOf", "anyOf", "allOf"])
      if (k in s) out.push(`/input_schema/${k}: not supported at the top level`);
    validJsonSchema(s, "/input_schema", out);
  }
  sameKeys(t, ["name", "description", "input_schema"], out);
  return out;
};

const OPENAI_KEYS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "anyOf",
  "$ref",
  "$defs",
  "description",
  "pattern",
  "format",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "minItems",
  "maxItems",
]);
const OPENAI_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

function checkOpenAIFunction(fn: Record<string, unknown>, out: string[]): void {
  if (typeof fn.name !== "string" || !/^[a-zA-Z0-9_-]{1,64}$/.test(fn.name))
    out.push(`/name: ${String(fn.name)}`);
  if (typeof fn.description !== "string") out.push("/description: missing");
  const p = fn.parameters;
  if (!isObj(p) || p.type !== "object") {
    out.push("/parameters: root must have type object");
    return;
  }
  validJsonSchema(p, "/parameters", out);
  if (fn.strict !== true) return;
  if ("anyOf" in p) out.push("/parameters: the root must not be anyOf");
  let properties = 0;
  const walk = (node: unknown, path: string, depth: number) => {
    if (!isObj(node)) {
      out.push(`${path}: a schema must be an object`);
      return;
    }
    if (depth > 10) out.push(`${path}: deeper than 10 levels`);
    for (const k of Object.keys(node))
      if (!OPENAI_KEYS.has(k)) out.push(`${path}/${k}: keyword not supported in strict mode`);
    if ("format" in node && !OPENAI_FORMATS.has(node.format as string))
      out.push(`${path}/format: ${String(node.format)}`);
    if (!("type" in node) && !("anyOf" in node) && !("$ref" in node) && !("enum" in node))
      out.push(`${path}: needs a type`);
    if (typeof node.$ref === "string") {
      const target = node.$ref.replace(/^#\/\$defs\//, "");
      if (!node.$ref.startsWith("#/$defs/") && node.$ref !== "#")
        out.push(`${path}/$ref: must point into $defs`);
      else if (node.$ref !== "#" && !(isObj(p.$defs) && target in p.$defs))
        out.push(`${path}/$ref: ${node.$ref} missing`);
    }
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes("object")) {
      if (node.additionalProperties !== false) out.push(`${path}: additionalProperties must be false`);
      const props = isObj(node.properties) ? Object.keys(node.properties) : [];
      const req = Array.isArray(node.required) ? node.required : [];
      if (props.length !== req.length || !props.every((k) => req.includes(k)))
        out.push(`${path}/required: must list every property`);
      properties += props.length;
      for (const k of props)
        walk((node.properties as Record<string, unknown>)[k], `${path}/properties/${k}`, depth + 1);
    }
    if (types.includes("array")) {
      if (!isObj(node.items)) out.push(`${path}/items: an array needs an item schema`);
      else walk(node.items, `${path}/items`, depth + 1);
    }
    if (Array.isArray(node.enum) && node.enum.length > 1000) out.push(`${path}/enum: more than 1000 values`);
    if (Array.isArray(node.anyOf))
      node.anyOf.forEach((b, i) => {
        walk(b, `${path}/anyOf/${i}`, depth);
      });
    if (isObj(node.$defs)) for (const [k, v] of Object.entries(node.$defs)) walk(v, `${path}/$defs/${k}`, 1);
  };
  walk(p, "/parameters", 1);
  if (properties > 5000) out.push("/parameters: more than 5000 properties");
}

export const checkOpenAIChat: Checker = (tool) => {
  const out: string[] = [];
  const t = tool as Record<string, unknown>;
  if (t.type !== "function" || !isObj(t.function)) return ["/: must be {type: function, function: {...}}"];
  sameKeys(t, ["type", "function"], out);
  checkOpenAIFunction(t.function, out);
  return out;
};

export const checkOpenAIResponses: Checker = (tool) => {
  const out: string[] = [];
  const t = tool as Record<string, unknown>;
  if (t.type !== "function") out.push("/type: must be function");
  if ("function" in t) out.push("/function: the Responses API takes flat function tools");
  checkOpenAIFunction(t, out);
  return out;
};

const GEMINI_KEYS = new Set([
  "type",
  "format",
  "description",
  "nullable",
  "enum",
  "items",
  "minItems",
  "maxItems",
  "properties",
  "required",
  "propertyOrdering",
  "minimum",
  "maximum",
  "anyOf",
]);
const GEMINI_FORMATS: Record<string, string[]> = {
  string: ["enum", "date-time"],
  number: ["float", "double", "enum"],
  integer: ["int32", "int64", "enum"],
};

export const checkGemini: Checker = (tool) => {
  const out: string[] = [];
  const t = tool as Record<string, unknown>;
  if (typeof t.name !== "string" || !/^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/.test(t.name))
    out.push(`/name: ${String(t.name)}`);
  if (typeof t.description !== "string") out.push("/description: missing");
  const walk = (node: unknown, path: string) => {
    if (!isObj(node)) {
      out.push(`${path}: a schema must be an object`);
      return;
    }
    for (const k of Object.keys(node))
      if (!GEMINI_KEYS.has(k)) out.push(`${path}/${k}: not in Gemini's schema subset`);
    const type = node.type;
    if (
      type !== undefined &&
      !["string", "number", "integer", "boolean", "array", "object"].includes(type as string)
    )
      out.push(`${path}/type: ${JSON.stringify(type)}`);
    if ("nullable" in node && typeof node.nullable !== "boolean")
      out.push(`${path}/nullable: must be boolean`);
    if ("format" in node) {
      const ok = GEMINI_FORMATS[type as string] ?? [];
      if (!ok.includes(node.format as string))
        out.push(`${path}/format: ${String(node.format)} for ${String(type)}`);
    }
    if (Array.isArray(node.enum)) {
      if (!node.enum.every((v) => typeof v === "string")) out.push(`${path}/enum: values must be strings`);
      if (type !== "string" && node.format !== "enum")
        out.push(`${path}/enum: needs type string or format enum`);
    } else if ("enum" in node) out.push(`${path}/enum: must be an array`);
    if (type === "object") {
      const props = isObj(node.properties) ? Object.keys(node.properties) : [];
      if (props.length === 0) out.push(`${path}/properties: should be non-empty for OBJECT type`);
      for (const r of Array.isArray(node.required) ? node.required : [])
        if (!props.includes(r)) out.push(`${path}/required: ${r} is not a property`);
      for (const k of props) walk((node.properties as Record<string, unknown>)[k], `${path}/properties/${k}`);
    } else if ("properties" in node || "required" in node)
      out.push(`${path}: properties without type object`);
    if (type === "array") {
      if (!isObj(node.items)) out.push(`${path}/items: missing field`);
      else walk(node.items, `${path}/items`);
    } else if ("items" in node) out.push(`${path}: items without type array`);
    if ("anyOf" in node) {
      if (!Array.isArray(node.anyOf) || node.anyOf.length === 0)
        out.push(`${path}/anyOf: must be a non-empty array`);
      else
        node.anyOf.forEach((b, i) => {
          walk(b, `${path}/anyOf/${i}`);
        });
    }
  };
  if ("parameters" in t) {
    if (!isObj(t.parameters) || t.parameters.type !== "object")
      out.push("/parameters: root must have type object");
    walk(t.parameters, "/parameters");
  }
  sameKeys(t, ["name", "description", "parameters"], out);
  return out;
};

export const checkMcp: Checker = (tool) => {
  const out: string[] = [];
  const t = tool as Record<string, unknown>;
  if (typeof t.name !== "string" || !/^[a-zA-Z0-9_.-]{1,128}$/.test(t.name))
    out.push(`/name: ${String(t.name)}`);
  if (typeof t.description !== "string") out.push("/description: missing");
  if (!isObj(t.inputSchema) || t.inputSchema.type !== "object")
    out.push("/inputSchema: root must have type object");
  else validJsonSchema(t.inputSchema, "/inputSchema", out);
  // MCP 2025-06-18 Tool: an optional outputSchema (object at the root) and optional annotations
  if (t.outputSchema !== undefined) {
    if (!isObj(t.outputSchema) || t.outputSchema.type !== "object")
      out.push("/outputSchema: root must have type object");
    else validJsonSchema(t.outputSchema, "/outputSchema", out);
  }
  if (t.annotations !== undefined) {
    if (!isObj(t.annotations)) out.push("/annotations: must be an object");
    else {
      sameKeys(t.annotations, MCP_ANNOTATIONS, out);
      for (const [k, v] of Object.entries(t.annotations))
        if (typeof v !== (k === "title" ? "string" : "boolean")) out.push(`/annotations/${k}: wrong type`);
    }
  }
  // MCP 2025-06-18 Tool: `title`, the name a client shows people
  if (t.title !== undefined && typeof t.title !== "string") out.push("/title: must be a string");
  sameKeys(t, ["name", "title", "description", "inputSchema", "outputSchema", "annotations"], out);
  return out;
};

const MCP_ANNOTATIONS = ["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

export const CHECKERS: Record<string, Checker> = {
  anthropic: checkAnthropic,
  "openai-chat": checkOpenAIChat,
  "openai-responses": checkOpenAIResponses,
  gemini: checkGemini,
  mcp: checkMcp,
};

/** Only the provider's documented fields: anything else is a leak or a typo. */
function sameKeys(obj: Record<string, unknown>, allowed: string[], out: string[]): void {
  for (const k of Object.keys(obj))
    if (!allowed.includes(k)) out.push(`/${k}: not a field of this provider's tool`);
}
