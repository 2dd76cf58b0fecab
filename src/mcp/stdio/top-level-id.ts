const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const ID_KEY = Buffer.from("id");
const METHOD_KEY = Buffer.from("method");
/** An id longer than this is not an id toolplane ever sent or would answer. */
const MAX_ID_BYTES = 256;

/**
 * Finds the top-level `"id"` of one JSON-RPC message fed to it in pieces, without keeping the
 * message: it tracks only nesting depth, string state and the bytes of the id's value.
 *
 * Used for a message too large to hold, so the one request it answers (or asks) can get an error
 * while the rest of the connection goes on. Hand-written because a streaming JSON library would
 * tokenise every value of a message that is being thrown away; this needs one byte compare per byte.
 * The id may come first or last (the TypeScript SDK writes `{result, jsonrpc, id}`).
 */
export class TopLevelIdScanner {
  private depth = 0;
  private topIsObject = false;
  private inString = false;
  private escape = false;
  private expectKey = false;
  /** The depth-1 key being read; undefined when the string being read is not a key. */
  private key: number[] | undefined;
  private lastKeyIsId = false;
  private method = false;
  /** Raw bytes of the id value being read. */
  private value: number[] | undefined;
  private found: string | number | undefined;

  feed(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i] as number;
      if (this.value) this.readValue(b);
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (b === BACKSLASH) this.escape = true;
        else if (b === QUOTE) {
          this.inString = false;
          if (this.key) {
            this.lastKeyIsId = same(this.key, ID_KEY);
            this.method ||= same(this.key, METHOD_KEY);
            this.key = undefined;
          }
          continue;
        }
        if (this.key && this.key.length <= METHOD_KEY.length) this.key.push(b);
        continue;
      }
      switch (b) {
        case QUOTE:
          this.inString = true;
          if (this.depth === 1 && this.topIsObject && this.expectKey) {
            this.key = [];
            this.expectKey = false;
          }
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          this.depth++;
          if (this.depth === 1) {
            this.topIsObject = b === OPEN_OBJECT;
            this.expectKey = this.topIsObject;
          }
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          this.depth--;
          break;
        case COMMA:
          if (this.depth === 1) this.expectKey = true;
          break;
        case COLON:
          if (this.depth === 1 && this.topIsObject && this.lastKeyIsId) this.value = [];
          this.lastKeyIsId = false;
          break;
      }
    }
  }

  /** The id, when the message had a top-level string or number id. */
  id(): string | number | undefined {
    return this.found;
  }

  /** True when the message has a top-level "method": a request or notification, not an answer. */
  hasMethod(): boolean {
    return this.method;
  }

  /** Collects the value's bytes until the depth-1 `,` or the closing `}` that ends it. */
  private readValue(b: number): void {
    const value = this.value as number[];
    const ends = !this.inString && this.depth === 1 && (b === COMMA || b === CLOSE_OBJECT);
    if (!ends) {
      if (value.length < MAX_ID_BYTES) value.push(b);
      else this.value = undefined;
      return;
    }
    this.value = undefined;
    try {
      const parsed: unknown = JSON.parse(Buffer.from(value).toString("utf8"));
      if (typeof parsed === "string" || (typeof parsed === "number" && Number.isFinite(parsed))) {
        this.found = parsed;
      }
    } catch {
      // not a plain id: the message gets no id
    }
  }
}

function same(bytes: readonly number[], key: Buffer): boolean {
  return bytes.length === key.length && key.every((c, i) => bytes[i] === c);
}
