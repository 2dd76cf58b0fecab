/**
 * A call form's fields, read from the tool's JSON Schema (whatever the tool: a new parameter
 * appears in the form by itself). Top-level properties become fields: a string, number, integer
 * or boolean gets its own input, an enum a choice; anything else (objects, arrays, unions) is
 * edited as JSON. Pure, so it is tested without a browser.
 */
export type FieldKind = "string" | "number" | "integer" | "boolean" | "enum" | "json";

export interface Field {
  name: string;
  kind: FieldKind;
  required: boolean;
  description: string;
  /** enum: the allowed values, as JSON text (so non-string values survive). */
  choices?: string[];
  /** The schema's default, as the input shows it. */
  placeholder?: string;
}

type Schema = Record<string, unknown>;

function asSchema(value: unknown): Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Schema) : {};
}

/** The single non-null type of a property, if it has one (`["string", "null"]` counts as string). */
function typeOf(prop: Schema): string | undefined {
  const t = prop.type;
  if (typeof t === "string") return t;
  if (Array.isArray(t)) {
    const real = t.filter((x) => x !== "null");
    return real.length === 1 && typeof real[0] === "string" ? real[0] : undefined;
  }
  return undefined;
}

export function fieldsOf(parameters: unknown): Field[] {
  const schema = asSchema(parameters);
  const props = asSchema(schema.properties);
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : [],
  );
  return Object.entries(props).map(([name, raw]) => {
    const prop = asSchema(raw);
    const type = typeOf(prop);
    let kind: FieldKind = "json";
    if (Array.isArray(prop.enum) && prop.enum.length > 0) kind = "enum";
    else if (type === "string" || type === "number" || type === "integer" || type === "boolean") kind = type;
    const field: Field = {
      name,
      kind,
      required: required.has(name),
      description: typeof prop.description === "string" ? prop.description : "",
    };
    if (kind === "enum") field.choices = (prop.enum as unknown[]).map((v) => JSON.stringify(v));
    if (prop.default !== undefined)
      field.placeholder = typeof prop.default === "string" ? prop.default : JSON.stringify(prop.default);
    return field;
  });
}

/** What a field's input holds: text for most, a flag for a checkbox ("unset" leaves it out). */
export type FieldValue = { text: string } | { flag: boolean | "unset" };

/**
 * The call's arguments from the inputs: empty fields are left out, so the tool's own defaults
 * apply. Errors say which field to fix; the host validates the rest against the schema.
 */
export function collectArgs(
  fields: readonly Field[],
  values: ReadonlyMap<string, FieldValue>,
): { args: Record<string, unknown> } | { error: string } {
  const args: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values.get(f.name);
    if (v === undefined) continue;
    if ("flag" in v) {
      if (v.flag !== "unset") args[f.name] = v.flag;
      continue;
    }
    const text = v.text;
    // left out even when required: the host's validation then tells what is missing, as it tells a model
    if (text === "") continue;
    if (f.kind === "string") args[f.name] = text;
    else if (f.kind === "number" || f.kind === "integer") {
      const n = Number(text);
      if (!Number.isFinite(n)) return { error: `${f.name} must be a number, got "${text}"` };
      args[f.name] = n;
    } else {
      // enum choices and JSON fields hold JSON text
      try {
        args[f.name] = JSON.parse(text);
      } catch (error) {
        return { error: `${f.name} is not valid JSON (${(error as Error).message})` };
      }
    }
  }
  return { args };
}
