import { createHash } from "node:crypto";
import type { BigIntStats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { FileSnapshot, ToolSession } from "../../declare/types.js";

/** Largest file edit and write take whole into memory (and so the largest read hashes for them). */
export const EDIT_MAX_BYTES = 16 * 1024 * 1024;

const HASH_BLOCK = 1024 * 1024;

/** A cheap identity of one version of a file: any write changes ctime, so a same version needs no new hash. */
export function versionOf(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Hashes an open file by positional reads (the reader's own position is left alone). */
async function hashOpenFile(fh: FileHandle, size: number): Promise<string> {
  const h = createHash("sha256");
  const buf = Buffer.allocUnsafe(Math.min(HASH_BLOCK, Math.max(1, size)));
  for (let pos = 0; pos < size; ) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - pos), pos);
    if (bytesRead === 0) break;
    h.update(buf.subarray(0, bytesRead));
    pos += bytesRead;
  }
  return h.digest("hex");
}

/**
 * The hook read calls after it returned a text page of a file: records which version the model
 * saw, so edit and write can refuse a file it never read or that changed since. A file too large
 * to edit is recorded without a hash (edit refuses it anyway), so reading a huge file stays cheap;
 * a version already recorded is not hashed again.
 */
export async function recordRead(
  session: ToolSession | undefined,
  realPath: string,
  fh: FileHandle,
  st: BigIntStats,
): Promise<void> {
  if (!session) return;
  const version = versionOf(st);
  const known = session.files.get(realPath);
  if (known?.version === version) return;
  const size = Number(st.size);
  const snapshot: FileSnapshot = { mtimeMs: Number(st.mtimeMs), size, version };
  if (size <= EDIT_MAX_BYTES) snapshot.hash = await hashOpenFile(fh, size);
  session.files.set(realPath, snapshot);
}
