import { createHash } from "node:crypto";
import { appendFile, readFile, stat } from "node:fs/promises";
import { endianness } from "node:os";
import path from "node:path";
import { ownCacheDir } from "../../util/own-cache-dir.js";

/** The text's key: sha256, raw. */
export const textKey = (text: string): string => createHash("sha256").update(text).digest("base64");

/** One record: the text's sha256 (32 bytes), the dimension count (uint32 LE), the floats (LE). */
const KEY_BYTES = 32;
const MAX_DIMS = 8192;
/** Past this the file takes no more records (10,000 tools of 1,536 dimensions are 61 MiB). */
const MAX_FILE_BYTES = 256 * 1024 * 1024;
/** The file's floats are little-endian: on such a machine a record's bytes are the array's. */
const NATIVE_LE = endianness() === "LE";

/**
 * Tool vectors cached on disk, one file per model, keyed by the hash of the text embedded: a
 * second run, or a restart, embeds only texts it has not seen. Under toolplane's cache folder
 * (`$TOOLPLANE_CACHE_DIR`, empty for none; the user's own folder only), in `embeddings/`. Records
 * are appended; a file cut short (a crash mid-write) loses only its last record. Vectors only
 * rank search results, so a damaged file costs ranking quality, never more.
 */
export class VectorStore {
  private readonly vectors = new Map<string, Float32Array>();
  private file: Promise<string | undefined> | undefined;

  constructor(
    private readonly modelId: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  get(key: string): Float32Array | undefined {
    return this.vectors.get(key);
  }

  get size(): number {
    return this.vectors.size;
  }

  /** Reads the model's file once; later calls return at once. */
  load(): Promise<string | undefined> {
    this.file ??= (async () => {
      const dir = await ownCacheDir(this.env, "embeddings");
      if (dir === undefined) return undefined;
      const file = path.join(
        dir,
        `${createHash("sha256").update(this.modelId).digest("hex").slice(0, 32)}.vec`,
      );
      let data: Buffer;
      try {
        data = await readFile(file);
      } catch {
        return file;
      }
      for (let at = 0; at + KEY_BYTES + 4 <= data.length; ) {
        const dims = data.readUInt32LE(at + KEY_BYTES);
        const end = at + KEY_BYTES + 4 + dims * 4;
        if (dims === 0 || dims > MAX_DIMS || end > data.length) break;
        const key = data.subarray(at, at + KEY_BYTES).toString("base64");
        const vector = new Float32Array(dims);
        const from = at + KEY_BYTES + 4;
        // a byte copy: reading 10,000 vectors float by float took ~150 ms of a warm start
        if (NATIVE_LE) new Uint8Array(vector.buffer).set(data.subarray(from, end));
        else for (let i = 0; i < dims; i++) vector[i] = data.readFloatLE(from + i * 4);
        this.vectors.set(key, vector);
        at = end;
      }
      return file;
    })();
    return this.file;
  }

  /** Keeps the vectors in memory and appends them to the file (best effort). */
  async add(items: ReadonlyArray<readonly [string, Float32Array]>): Promise<void> {
    const fresh = items.filter(([key]) => !this.vectors.has(key));
    for (const [key, vector] of fresh) this.vectors.set(key, vector);
    const file = await this.load();
    if (file === undefined || fresh.length === 0) return;
    const parts: Buffer[] = [];
    for (const [key, vector] of fresh) {
      const head = Buffer.alloc(KEY_BYTES + 4);
      Buffer.from(key, "base64").copy(head);
      head.writeUInt32LE(vector.length, KEY_BYTES);
      const body = Buffer.alloc(vector.length * 4);
      if (NATIVE_LE) body.set(new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength));
      else for (let i = 0; i < vector.length; i++) body.writeFloatLE(vector[i]!, i * 4);
      parts.push(head, body);
    }
    try {
      const size = await stat(file).then(
        (s) => s.size,
        () => 0,
      );
      if (size < MAX_FILE_BYTES) await appendFile(file, Buffer.concat(parts), { mode: 0o600 });
    } catch {
      // a read-only or full disk: the vectors stay for this process
    }
  }
}
