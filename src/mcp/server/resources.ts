import { isUtf8 } from "node:buffer";
import type { ResourceBody } from "../../declare/served.js";
import { importModule } from "../../util/import-module.js";

export interface ResourceEntry {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ResourceTemplateEntry {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** One resources/read content: text, or base64 bytes. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** Where resources come from (the skill bundles, a tools module's declarations). */
export interface ResourceSource {
  list(): Promise<readonly ResourceEntry[]> | readonly ResourceEntry[];
  templates(): readonly ResourceTemplateEntry[];
  /** The contents of `uri`; undefined when the uri is not this source's. Throws when it is but cannot be read. */
  read(uri: string): Promise<ResourceContents | undefined>;
  /** Values for a template variable; undefined when the template is not this source's. */
  complete?(
    uriTemplate: string,
    variable: string,
    value: string,
    context: Readonly<Record<string, string>>,
  ): Promise<readonly string[] | undefined>;
  /** The local file behind a uri (watched while a client is subscribed to it); undefined: none. */
  fileOf?(uri: string): Promise<string | undefined>;
}

/** Several sources as one: lists in source order, the first that knows a uri or template answers. */
export function combineResources(sources: readonly ResourceSource[]): ResourceSource {
  return {
    list: async () => (await Promise.all(sources.map((s) => s.list()))).flat(),
    templates: () => sources.flatMap((s) => s.templates()),
    read: async (uri) => {
      for (const s of sources) {
        const got = await s.read(uri);
        if (got) return got;
      }
      return undefined;
    },
    complete: async (template, variable, value, context) => {
      for (const s of sources) {
        const got = await s.complete?.(template, variable, value, context);
        if (got) return got;
      }
      return undefined;
    },
    fileOf: async (uri) => {
      for (const s of sources) {
        const got = await s.fileOf?.(uri);
        if (got) return got;
      }
      return undefined;
    },
  };
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|yaml|javascript|toml)|image\/svg\+xml)/;

/**
 * What a resource read returns, as MCP contents: a string is text; bytes are text when they are
 * UTF-8 without a NUL (and the declared type, if any, is a text type), else a base64 blob whose
 * type is the declared one, else what `file-type` finds in the bytes, else octet-stream.
 */
export async function contentsOf(
  uri: string,
  body: ResourceBody,
  mimeType: string | undefined,
): Promise<ResourceContents> {
  if (typeof body === "string") return { uri, mimeType: mimeType ?? "text/plain", text: body };
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if ((mimeType === undefined || TEXT_TYPES.test(mimeType)) && bytes.indexOf(0) < 0 && isUtf8(bytes))
    return { uri, mimeType: mimeType ?? "text/plain", text: bytes.toString("utf8") };
  let type = mimeType;
  if (type === undefined && bytes.length > 0) {
    const { fileTypeFromBuffer } = await importModule<typeof import("file-type")>("file-type");
    type = (await fileTypeFromBuffer(bytes.subarray(0, 4100)))?.mime;
  }
  return { uri, mimeType: type ?? "application/octet-stream", blob: bytes.toString("base64") };
}

/** Offered completion values: those starting with what was typed (case folded), at most 100 (MCP's cap). */
export function completionOf(values: readonly string[], typed: string) {
  const low = typed.toLowerCase();
  const hits = values.filter((v) => v.toLowerCase().startsWith(low));
  return { values: hits.slice(0, 100), total: hits.length, hasMore: hits.length > 100 };
}
