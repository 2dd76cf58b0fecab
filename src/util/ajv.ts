import { createRequire } from "node:module";
import type { Ajv, Options } from "ajv";

/**
 * ajv, loaded on first use: it is only needed for raw JSON Schemas (MCP servers, tool modules),
 * and loading it costs about as much as Node's own start. It is CommonJS, so a synchronous
 * require keeps every caller synchronous.
 */
export function newAjv(options: Options): Ajv {
  const { Ajv: AjvClass } = createRequire(import.meta.url)("ajv") as typeof import("ajv");
  return new AjvClass(options);
}
