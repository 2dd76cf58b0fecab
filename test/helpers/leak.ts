// The walker lives in src so `toolplane doctor` and the leak test share one definition.
export { findLeaks, HOST_KEYS, publishedHostKeys } from "../../src/declare/leak.js";
