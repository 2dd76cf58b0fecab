import { createHash, type Hash } from "node:crypto";

const PREFIX_TAG = Buffer.from("toolplane/prefix/v1\n");
const DIGEST_BYTES = 32;
/** Tools per kept hash state: 32 KB of digests, about ten states for 10,000 tools. */
const BLOCK = 1024;

/**
 * prefixHash: sha256 over a tag, each tool's wire digest in order, then the system text's digest.
 * The running hash's state is kept every BLOCK tools, so after tools change only the digests from
 * the block of the first changed one onwards are hashed again (a re-render of 10,000 tools hashed
 * all 320 KB before, the largest part of its cost). The digests buffer is the caller's to write.
 */
export class PrefixHasher {
  /** states[k]: the hash after the tag and the first k * BLOCK digests. */
  private readonly states: Hash[];
  private end: Hash;

  constructor(readonly digests: Buffer) {
    this.states = [createHash("sha256").update(PREFIX_TAG)];
    this.end = this.states[0]!;
    this.rehashFrom(0);
  }

  /** Digests from tool `index` on were rewritten in place: hash again from its block. */
  changedFrom(index: number): void {
    this.rehashFrom(Math.floor(index / BLOCK));
  }

  /** The prefixHash with this system-text digest (32 latin1 characters), as hex. */
  hex(systemDigest: string): string {
    return this.end.copy().update(systemDigest, "latin1").digest("hex");
  }

  private rehashFrom(block: number): void {
    const tools = this.digests.length / DIGEST_BYTES;
    const h = this.states[block]!.copy();
    for (let k = block; k * BLOCK < tools; k++) {
      h.update(
        this.digests.subarray(k * BLOCK * DIGEST_BYTES, Math.min(tools, (k + 1) * BLOCK) * DIGEST_BYTES),
      );
      this.states[k + 1] = h.copy();
    }
    this.end = h;
  }
}
