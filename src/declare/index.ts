export {
  declaredParametersOf,
  defineTool,
  parameterSchemasBuiltCount,
  TOOL_NAME_PATTERN,
} from "./define-tool.js";
export { displayCall } from "./display.js";
export { ArgumentsError, DeclarationError } from "./errors.js";
export { DRAFT_07, isObjectSchema, isZodSchema, normaliseRawSchema, toJsonSchema } from "./json-schema.js";
export { findLeaks, HOST_KEYS } from "./leak.js";
export {
  isPrebuiltSchema,
  type PrebuiltSchema,
  prebuiltSchema,
  type StandaloneValidate,
} from "./prebuilt.js";
export { projectTool, type ToolProjection } from "./project.js";
export type * from "./types.js";
export { compileValidator, formatIssues, toPointer, type Validator } from "./validate.js";
