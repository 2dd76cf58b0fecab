export { adapterFor, supportedProviders } from "./adapters.js";
export { type RenderInput, renderCatalog, renderSkillCatalog } from "./catalog.js";
export * from "./types.js";
