export { type ChatEndpoint, completionsUrl, EndpointError, toolsChosen } from "./chat-endpoint.js";
export {
  type EndpointCaseResult,
  evalSelection,
  type SelectionEvalOptions,
  type SelectionReport,
  type ToolSelectionReport,
} from "./selection.js";
