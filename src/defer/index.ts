export * from "./native.js";
export * from "./plan.js";
export { Bm25fIndex, type Bm25fOptions, DEFAULT_BM25F, type Hit, type SyncReport } from "./search/bm25f.js";
export { FIELDS, fingerprint, type SearchEntry } from "./search/entry.js";
export { entryFromJson, entryFromTool, paramsText } from "./search/from-tool.js";
export { splitWords, terms } from "./search/tokenize.js";
export { NO_FIT_THRESHOLD, type SelectionCheck, selectionCheck } from "./selection.js";
export * from "./session.js";
export * from "./tool-search.js";
