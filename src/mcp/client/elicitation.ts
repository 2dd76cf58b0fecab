// A server's `elicitation/create` (form mode): what it asks, checked before anyone sees it, and the
// answer, checked before it goes back. The schema is untrusted input of bounded size; MCP restricts
// it to a flat object of primitive fields (string, number, integer, boolean, single- and
// multi-select enums), and anything else is refused. The checks are written out here rather than
// handed to a JSON Schema validator: the subset is closed and small, a general validator would
// accept keywords the spec does not allow (pattern, $ref), and a compile per request costs more
// than the whole check.

export type ElicitationValue = string | number | boolean | string[];

export interface ElicitationOption {
  value: string;
  title?: string;
}

/** One field of the form, normalised from the server's property schema. */
export interface ElicitationField {
  name: string;
  title?: string;
  description?: string;
  required: boolean;
  type: "string" | "number" | "integer" | "boolean" | "enum" | "multi";
  default?: ElicitationValue;
  /** enum and multi: the values to choose from. */
  options?: ElicitationOption[];
  format?: "email" | "uri" | "date" | "date-time";
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** What a harness's `onElicitation` (or the CLI's prompt) is asked. */
export interface ElicitationRequest {
  /** The configured name of the MCP server that asks. */
  server: string;
  /** The server's message, as it sent it (untrusted text: show it as text). */
  message: string;
  fields: ElicitationField[];
  /** The server's requestedSchema, as checked. */
  requestedSchema: Record<string, unknown>;
  /** Aborted when the server cancels the request or the connection closes. */
  signal: AbortSignal;
}

export type ElicitationAnswer =
  | { action: "accept"; content: Record<string, ElicitationValue> }
  | { action: "decline" }
  | { action: "cancel" };

export type ElicitationHandler = (
  request: ElicitationRequest,
) => ElicitationAnswer | Promise<ElicitationAnswer>;

/** Bounds on what a server may ask: larger requests are refused, not shown. */
export const ELICITATION_LIMITS = {
  schemaBytes: 32 * 1024,
  messageChars: 4000,
  fields: 50,
  options: 200,
} as const;

const TYPES = new Set(["string", "number", "integer", "boolean", "array"]);
const FORMATS = new Set(["email", "uri", "date", "date-time"]);
const KEYS = new Set([
  "type",
  "title",
  "description",
  "default",
  "enum",
  "enumNames",
  "oneOf",
  "items",
  "format",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
]);

/** A request toolplane will not put to anyone, and why (sent back to the server as its error). */
export class ElicitationRefused extends Error {
  constructor(reason: string) {
    super(`toolplane refused the elicitation request: ${reason}`);
    this.name = "ElicitationRefused";
  }
}

/** The form a request asks for, or ElicitationRefused. */
export function readElicitation(params: unknown): {
  message: string;
  fields: ElicitationField[];
  schema: Record<string, unknown>;
} {
  const p = params as { message?: unknown; requestedSchema?: unknown; mode?: unknown };
  if (p === null || typeof p !== "object") throw new ElicitationRefused("its params are not an object");
  if (p.mode !== undefined && p.mode !== "form")
    throw new ElicitationRefused(`mode "${String(p.mode)}" is not supported (form only)`);
  if (typeof p.message !== "string") throw new ElicitationRefused("it has no message");
  if (p.message.length > ELICITATION_LIMITS.messageChars)
    throw new ElicitationRefused(`its message is over ${ELICITATION_LIMITS.messageChars} characters`);
  const schema = p.requestedSchema as Record<string, unknown> | undefined;
  if (schema === null || typeof schema !== "object" || Array.isArray(schema))
    throw new ElicitationRefused("requestedSchema is not an object");
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > ELICITATION_LIMITS.schemaBytes)
    throw new ElicitationRefused(`requestedSchema is ${bytes} bytes, over ${ELICITATION_LIMITS.schemaBytes}`);
  if (schema.type !== "object") throw new ElicitationRefused('requestedSchema must have type "object"');
  const props = schema.properties;
  if (props === null || typeof props !== "object" || Array.isArray(props))
    throw new ElicitationRefused("requestedSchema has no properties object");
  const names = Object.keys(props);
  if (names.length > ELICITATION_LIMITS.fields)
    throw new ElicitationRefused(
      `requestedSchema has ${names.length} fields, over ${ELICITATION_LIMITS.fields}`,
    );
  const required = schema.required ?? [];
  if (!Array.isArray(required) || required.some((r) => typeof r !== "string" || !names.includes(r)))
    throw new ElicitationRefused("requestedSchema.required must list names of its properties");
  const fields = names.map((name) =>
    readField(name, (props as Record<string, unknown>)[name], (required as string[]).includes(name)),
  );
  return { message: p.message, fields, schema };
}

function readField(name: string, raw: unknown, required: boolean): ElicitationField {
  const at = `field "${name}"`;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw new ElicitationRefused(`${at} is not a schema object`);
  const s = raw as Record<string, unknown>;
  if (typeof s.type !== "string" || !TYPES.has(s.type))
    throw new ElicitationRefused(
      `${at} has type ${JSON.stringify(s.type)}; allowed: string, number, integer, boolean, array`,
    );
  for (const key of Object.keys(s))
    if (!KEYS.has(key))
      throw new ElicitationRefused(`${at} uses "${key}", which elicitation schemas do not allow`);
  const field: ElicitationField = { name, required, type: s.type as ElicitationField["type"] };
  text(s, "title", at, field);
  text(s, "description", at, field);
  for (const k of ["minLength", "maxLength", "minItems", "maxItems"] as const) {
    if (s[k] === undefined) continue;
    if (!Number.isInteger(s[k]) || (s[k] as number) < 0)
      throw new ElicitationRefused(`${at}: ${k} must be a whole number`);
    field[k] = s[k] as number;
  }
  for (const k of ["minimum", "maximum"] as const) {
    if (s[k] === undefined) continue;
    if (typeof s[k] !== "number" || !Number.isFinite(s[k]))
      throw new ElicitationRefused(`${at}: ${k} must be a number`);
    field[k] = s[k] as number;
  }
  if (s.type === "string") {
    const options = stringOptions(s, at);
    if (options) {
      field.type = "enum";
      field.options = options;
    } else if (s.format !== undefined) {
      if (typeof s.format !== "string" || !FORMATS.has(s.format))
        throw new ElicitationRefused(`${at}: format must be email, uri, date or date-time`);
      field.format = s.format as ElicitationField["format"];
    }
  } else if (s.type === "array") {
    field.type = "multi";
    const items = s.items as Record<string, unknown> | undefined;
    if (items === null || typeof items !== "object")
      throw new ElicitationRefused(`${at}: an array field needs items with its options`);
    const options = Array.isArray(items.anyOf)
      ? titled(items.anyOf, at)
      : items.type === "string"
        ? plain(items.enum, at)
        : undefined;
    if (!options)
      throw new ElicitationRefused(
        `${at}: an array field must be a multi-select of strings (items.enum or items.anyOf)`,
      );
    field.options = options;
  } else if (
    s.enum !== undefined ||
    s.oneOf !== undefined ||
    s.format !== undefined ||
    s.items !== undefined
  ) {
    throw new ElicitationRefused(`${at}: enum, oneOf, format and items belong to string and array fields`);
  }
  if (s.default !== undefined) {
    const problem = valueProblem(field, s.default);
    if (problem) throw new ElicitationRefused(`${at}: its default ${problem}`);
    field.default = s.default as ElicitationValue;
  }
  return field;
}

function text(
  s: Record<string, unknown>,
  key: "title" | "description",
  at: string,
  field: ElicitationField,
): void {
  if (s[key] === undefined) return;
  if (typeof s[key] !== "string") throw new ElicitationRefused(`${at}: ${key} must be text`);
  field[key] = s[key] as string;
}

function stringOptions(s: Record<string, unknown>, at: string): ElicitationOption[] | undefined {
  if (Array.isArray(s.oneOf)) return titled(s.oneOf, at);
  if (s.enum === undefined) return undefined;
  const options = plain(s.enum, at);
  if (s.enumNames !== undefined) {
    const names = s.enumNames;
    if (!Array.isArray(names) || names.length !== options.length || names.some((n) => typeof n !== "string"))
      throw new ElicitationRefused(`${at}: enumNames must name each enum value`);
    names.forEach((n, i) => {
      (options[i] as ElicitationOption).title = n as string;
    });
  }
  return options;
}

function plain(values: unknown, at: string): ElicitationOption[] {
  if (!Array.isArray(values) || values.length === 0 || values.some((v) => typeof v !== "string"))
    throw new ElicitationRefused(`${at}: enum must be a list of strings`);
  return bounded(
    values.map((value) => ({ value: value as string })),
    at,
  );
}

function titled(values: unknown[], at: string): ElicitationOption[] {
  const options = values.map((o) => {
    const c = o as { const?: unknown; title?: unknown };
    if (c === null || typeof c !== "object" || typeof c.const !== "string" || typeof c.title !== "string")
      throw new ElicitationRefused(`${at}: each option needs a string const and title`);
    return { value: c.const, title: c.title };
  });
  if (options.length === 0) throw new ElicitationRefused(`${at}: it offers no options`);
  return bounded(options, at);
}

function bounded(options: ElicitationOption[], at: string): ElicitationOption[] {
  if (options.length > ELICITATION_LIMITS.options)
    throw new ElicitationRefused(
      `${at} offers ${options.length} options, over ${ELICITATION_LIMITS.options}`,
    );
  return options;
}

/** The answer `--yes` gives: accept with the defaults when every required field has one, else decline. */
export function defaultAnswer(fields: readonly ElicitationField[]): ElicitationAnswer {
  if (fields.some((f) => f.required && f.default === undefined)) return { action: "decline" };
  const content: Record<string, ElicitationValue> = {};
  for (const f of fields) if (f.default !== undefined) content[f.name] = f.default;
  return { action: "accept", content };
}

/** What is wrong with an accepted answer's content (empty when it fits the form). */
export function answerProblems(fields: readonly ElicitationField[], content: unknown): string[] {
  if (content === null || typeof content !== "object" || Array.isArray(content))
    return ["content is not an object"];
  const c = content as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(c))
    if (!fields.some((f) => f.name === key)) problems.push(`"${key}" is not a field of the form`);
  for (const f of fields) {
    if (c[f.name] === undefined) {
      if (f.required) problems.push(`"${f.name}" is required`);
      continue;
    }
    const problem = valueProblem(f, c[f.name]);
    if (problem) problems.push(`"${f.name}" ${problem}`);
  }
  return problems;
}

/** Why `v` does not fit the field, or undefined. */
export function valueProblem(f: ElicitationField, v: unknown): string | undefined {
  switch (f.type) {
    case "boolean":
      return typeof v === "boolean" ? undefined : "must be true or false";
    case "number":
    case "integer": {
      if (typeof v !== "number" || !Number.isFinite(v)) return "must be a number";
      if (f.type === "integer" && !Number.isInteger(v)) return "must be a whole number";
      if (f.minimum !== undefined && v < f.minimum) return `must be at least ${f.minimum}`;
      if (f.maximum !== undefined && v > f.maximum) return `must be at most ${f.maximum}`;
      return undefined;
    }
    case "enum":
      return typeof v === "string" && (f.options ?? []).some((o) => o.value === v)
        ? undefined
        : `must be one of ${(f.options ?? []).map((o) => JSON.stringify(o.value)).join(", ")}`;
    case "multi": {
      if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) return "must be a list of choices";
      const bad = v.find((x) => !(f.options ?? []).some((o) => o.value === x));
      if (bad !== undefined) return `has ${JSON.stringify(bad)}, which is not one of the choices`;
      if (new Set(v).size !== v.length) return "lists a choice twice";
      if (f.minItems !== undefined && v.length < f.minItems) return `needs at least ${f.minItems} choices`;
      if (f.maxItems !== undefined && v.length > f.maxItems) return `takes at most ${f.maxItems} choices`;
      return undefined;
    }
    default: {
      if (typeof v !== "string") return "must be text";
      const length = [...v].length;
      if (f.minLength !== undefined && length < f.minLength)
        return `must be at least ${f.minLength} characters`;
      if (f.maxLength !== undefined && length > f.maxLength)
        return `must be at most ${f.maxLength} characters`;
      return f.format ? formatProblem(f.format, v) : undefined;
    }
  }
}

function formatProblem(format: NonNullable<ElicitationField["format"]>, v: string): string | undefined {
  switch (format) {
    case "email":
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? undefined : "must be an email address";
    case "uri":
      return URL.canParse(v) && /^[a-z][a-z0-9+.-]*:/i.test(v)
        ? undefined
        : "must be a URI (with its scheme)";
    case "date":
      return /^\d{4}-\d{2}-\d{2}$/.test(v) && validDate(v) ? undefined : "must be a date, YYYY-MM-DD";
    case "date-time":
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(v) &&
        validDate(v.slice(0, 10))
        ? undefined
        : "must be a date and time, e.g. 2025-01-31T09:30:00Z";
  }
}

function validDate(day: string): boolean {
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day;
}
