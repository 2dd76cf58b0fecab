export { servedEntries } from "./providers.js";
export { parseScopeChain } from "./scope.js";
export { Toolplane, type ToolplaneOptions } from "./toolplane.js";
