export * from "./assemble/index.js";
export * from "./config/index.js";
export * from "./declare/index.js";
export * from "./invalidate/index.js";
export * from "./register/index.js";
export * from "./render/index.js";
