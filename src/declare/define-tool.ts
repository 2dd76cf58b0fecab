import type { z } from "zod";
import { DeclarationError } from "./errors.js";
import { isObjectSchema, sealedJsonSchema } from "./json-schema.js";
import type { PrebuiltSchema } from "./prebuilt.js";
import type { JsonSchema, SchemaInput, Tool, ToolDeclaration, ValidationResult } from "./types.js";
import { compileValidator, type Validator } from "./validate.js";

/** Arguments as execute sees them: Zod's output type, or a plain record for a raw JSON Schema. */
export type InferArgs<P> = P extends z.ZodType
  ? z.output<P>
  : P extends PrebuiltSchema<infer T>
    ? T
    : Record<string, unknown>;

/** The canonical value's type: Zod's output type; a raw JSON Schema leaves it to execute. */
// biome-ignore lint/suspicious/noExplicitAny: a raw JSON Schema says nothing TypeScript can use
export type InferValue<S> = S extends z.ZodType ? z.output<S> : S extends PrebuiltSchema<infer T> ? T : any;

let parameterSchemasBuilt = 0;

/** How many parameter JSON Schemas have been built in this process: lets a test prove laziness. */
export function parameterSchemasBuiltCount(): number {
  return parameterSchemasBuilt;
}

/** The schema each tool was declared with, as given: read by search without building JSON Schema. */
const declaredParameters = new WeakMap<object, SchemaInput>();

/** The parameter schema as declared (Zod or raw JSON Schema); reading it builds nothing. */
export function declaredParametersOf(tool: object): SchemaInput | undefined {
  return declaredParameters.get(tool);
}

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Declares a tool. Every rule is checked here, at definition time, so a bad declaration fails
 * where it is written rather than when a model first calls it. JSON Schemas are built lazily:
 * a deferred tool that is only listed by name never pays for its schema.
 */
export function defineTool<P extends SchemaInput, S extends SchemaInput, O = InferValue<S>, I = InferArgs<P>>(
  decl: ToolDeclaration<I, O> & { parameters: P; output: { schema: S } },
): Tool<I, O> {
  checkDeclaration(decl as ToolDeclaration);
  let parameters: JsonSchema | undefined;
  let outputSchema: JsonSchema | undefined;
  const params = () => {
    if (parameters === undefined) {
      parameterSchemasBuilt++;
      parameters = sealedJsonSchema(decl.parameters, "input");
    }
    return parameters;
  };
  const output = () => {
    outputSchema ??= sealedJsonSchema(decl.output.schema, "output");
    return outputSchema;
  };
  let inputValidator: Validator<I> | undefined;
  let outputValidator: Validator<O> | undefined;
  const host = Object.freeze({
    output: decl.output,
    execute: decl.execute,
    timeoutMs: decl.timeoutMs,
    concurrencySafe: decl.concurrencySafe ?? false,
    display: decl.display,
    permission: decl.permission,
    selection: decl.selection,
    spill: decl.spill ?? true,
    namespace: decl.namespace,
    defer: decl.defer,
    annotations: decl.annotations ? Object.freeze({ ...decl.annotations }) : undefined,
  });
  const tool: Tool<I, O> = {
    kind: "tool",
    name: decl.name,
    description: decl.description,
    get parameters() {
      return params();
    },
    get outputSchema() {
      return output();
    },
    host,
    validateInput(args: unknown): ValidationResult<I> {
      inputValidator ??= compileValidator<I>(decl.parameters, params);
      return inputValidator(args);
    },
    validateOutput(value: unknown): ValidationResult<O> {
      outputValidator ??= compileValidator<O>(decl.output.schema, output);
      return outputValidator(value);
    },
  };
  const frozen = Object.freeze(tool);
  declaredParameters.set(frozen, decl.parameters);
  return frozen;
}

function checkDeclaration(decl: ToolDeclaration): void {
  const name = typeof decl?.name === "string" ? decl.name : String(decl?.name);
  const fail = (rule: string, detail: string): never => {
    throw new DeclarationError(name, rule, detail);
  };
  if (typeof decl?.name !== "string" || !TOOL_NAME_PATTERN.test(decl.name)) {
    fail("name", `must match ${TOOL_NAME_PATTERN} (letters, digits, _ and -, 1 to 64 characters)`);
  }
  if (typeof decl.description !== "string" || decl.description.trim() === "") {
    fail("description", "must be a non-empty string");
  }
  if (decl.parameters === undefined || !isObjectSchema(decl.parameters)) {
    fail("parameters", 'must be an object schema (z.object({...}) or {"type": "object", ...})');
  }
  if (decl.output === undefined || decl.output === null || typeof decl.output !== "object") {
    fail("output", "is required: declare { schema, render } for the canonical value execute returns");
  }
  if (decl.output.schema === undefined || decl.output.schema === null) {
    fail("output.schema", "is required: the schema of the value execute returns");
  }
  if (typeof decl.output.render !== "function") {
    fail("output.render", "must be a function that turns the value into model content");
  }
  if (typeof decl.execute !== "function") fail("execute", "must be a function");
  if (decl.timeoutMs !== undefined && !(Number.isInteger(decl.timeoutMs) && decl.timeoutMs > 0)) {
    fail("timeoutMs", "must be a positive whole number of milliseconds");
  }
  if (decl.concurrencySafe !== undefined && typeof decl.concurrencySafe !== "boolean") {
    fail("concurrencySafe", "must be a boolean");
  }
  if (decl.defer !== undefined && !["never", "always", "auto"].includes(decl.defer)) {
    fail("defer", 'must be "never", "always" or "auto"');
  }
  if (decl.selection !== undefined) {
    const problem = selectionProblem(decl.selection);
    if (problem) fail(problem.rule, problem.detail);
  }
}

/**
 * Why a selection declaration cannot make a test that fails, or undefined: each side needs at
 * least one case (a side with none passes whatever the tool does), each case a task. defineTool
 * refuses such a declaration; eval checks a tool made some other way with the same rule.
 */
export function selectionProblem(selection: unknown): { rule: string; detail: string } | undefined {
  const s = selection as { shouldSelect?: unknown; shouldNotSelect?: unknown } | null;
  for (const list of ["shouldSelect", "shouldNotSelect"] as const) {
    const cases = s?.[list];
    if (!Array.isArray(cases))
      return {
        rule: "selection",
        detail: "needs shouldSelect and shouldNotSelect arrays of { task, args? }",
      };
    if (cases.length === 0)
      return {
        rule: `selection.${list}`,
        detail: "is empty: give at least one task (a selection test with none cannot fail)",
      };
    for (const [i, c] of cases.entries()) {
      const problem = selectionCaseProblem(c);
      if (problem) return { rule: `selection.${list}[${i}]`, detail: problem };
    }
  }
  return undefined;
}

/** Why one selection case is unusable, or undefined. */
function selectionCaseProblem(c: unknown): string | undefined {
  if (c === null || typeof c !== "object" || Array.isArray(c))
    return "must be an object { task, args?, expected? }";
  const task = (c as { task?: unknown }).task;
  if (typeof task !== "string" || task.trim() === "")
    return "needs `task`, a non-empty string (what a user would ask)";
  return undefined;
}
