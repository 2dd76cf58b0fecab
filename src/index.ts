export * from "./assemble/index.js";
export * from "./config/index.js";
export * from "./declare/index.js";
export * from "./execute/index.js";
export * from "./permissions/index.js";
export * from "./register/index.js";
export * from "./render/index.js";
