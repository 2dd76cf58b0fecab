export {
  type ClientHandlers,
  ClientUnavailableError,
  type ElicitField,
  type ElicitRequest,
  type ElicitResult,
  LOG_LEVELS,
  type LogLevel,
  type LogMessage,
  type ProgressUpdate,
  type SampleRequest,
  type SampleResult,
  type SamplingContent,
  type SamplingMessage,
} from "./client.js";
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
export {
  type CompletionValues,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  type PromptArgumentDeclaration,
  type PromptContent,
  type PromptDeclaration,
  type PromptMessage,
  type ResourceBody,
  type ResourceDeclaration,
  type ResourceTemplateDeclaration,
  type Served,
  type ServedEntries,
  servedOf,
} from "./served.js";
export type * from "./types.js";
export { compileValidator, formatIssues, toPointer, type Validator } from "./validate.js";
