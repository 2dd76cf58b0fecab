import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { z } from "zod";
import { newAjv } from "../util/ajv.js";
import { isZodSchema } from "./json-schema.js";
import { isPrebuiltSchema, type PrebuiltSchema } from "./prebuilt.js";
import type { JsonSchema, SchemaInput, ValidationIssue, ValidationResult } from "./types.js";

// One ajv for every raw schema: strict off because real-world schemas (MCP servers, BFCL) carry
// vendor keywords; allErrors so a bad call learns every field to fix at once.
let ajv: Ajv | undefined;
const rawAjv = () =>
  (ajv ??= newAjv({ strict: false, allErrors: true, useDefaults: true, validateSchema: false }));

export type Validator<T> = (value: unknown) => ValidationResult<T>;

/** A validator for a Zod schema (parsed, so defaults apply) or a raw JSON Schema (ajv). */
export function compileValidator<T>(schema: SchemaInput, jsonSchema: () => JsonSchema): Validator<T> {
  if (isZodSchema(schema)) return zodValidator<T>(schema);
  if (isPrebuiltSchema(schema)) return prebuiltValidator<T>(schema);
  let compiled: ValidateFunction | undefined;
  return (value) => {
    compiled ??= rawAjv().compile(jsonSchema());
    // ajv applies defaults in place: validate a copy so the caller's value is never changed.
    const copy = value === undefined ? value : structuredClone(value);
    if (compiled(copy)) return { ok: true, value: copy as T };
    return { ok: false, issues: (compiled.errors ?? []).map(ajvIssue) };
  };
}

function prebuiltValidator<T>(schema: PrebuiltSchema): Validator<T> {
  return (value) => {
    const data = schema.mutates && value !== undefined ? structuredClone(value) : value;
    if (schema.validate(data)) return { ok: true, value: data as T };
    return { ok: false, issues: ((schema.validate.errors ?? []) as ErrorObject[]).map(ajvIssue) };
  };
}

function zodValidator<T>(schema: z.ZodType): Validator<T> {
  return (value) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return { ok: true, value: parsed.data as T };
    return {
      ok: false,
      issues: parsed.error.issues.map((issue) => ({
        path: toPointer(issue.path as PropertyKey[]),
        message: issue.message,
      })),
    };
  };
}

function ajvIssue(error: ErrorObject): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") {
    return { path: `${error.instancePath}/${String(params.missingProperty)}`, message: "is required" };
  }
  if (error.keyword === "additionalProperties") {
    return {
      path: `${error.instancePath}/${String(params.additionalProperty)}`,
      message: "is not a known parameter",
    };
  }
  return { path: error.instancePath, message: error.message ?? error.keyword };
}

export function toPointer(path: readonly PropertyKey[]): string {
  return path.map((part) => `/${String(part).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** One line per issue, naming the field: what a model reads after a bad call. */
export function formatIssues(issues: ValidationIssue[]): string {
  return issues
    .map((issue) => `${issue.path === "" ? "(arguments)" : issue.path}: ${issue.message}`)
    .join("\n");
}
