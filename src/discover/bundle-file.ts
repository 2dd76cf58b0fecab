import { constants } from "node:fs";
import { open, realpath } from "node:fs/promises";
import path from "node:path";

/** The largest bundle file read whole (a served resource): a bigger one is refused, never read. */
export const BUNDLE_FILE_MAX_BYTES = 8 * 1024 * 1024;

/** A bundle file's path that cannot be read, with why (shown to the client). */
export class BundleFileError extends Error {
  override name = "BundleFileError";
}

/**
 * The real path of `rel` ("/"-separated) in the bundle `dir`: it may not climb out (`..`,
 * absolute), and once symlinks are followed it must still be inside the bundle's real folder.
 */
export async function bundlePath(dir: string, rel: string): Promise<string> {
  const parts = rel.split("/");
  if (
    rel === "" ||
    rel.includes("\0") ||
    rel.includes("\\") ||
    parts.some((p) => p === "" || p === "." || p === "..")
  )
    throw new BundleFileError(
      `"${rel}" is not a path inside the bundle (no "..", "." or empty parts, "/" between)`,
    );
  let real: string;
  let base: string;
  try {
    base = await realpath(dir);
    real = await realpath(path.join(dir, ...parts));
  } catch {
    throw new BundleFileError(`${rel}: no such file in the bundle`);
  }
  const inside = path.relative(base, real);
  if (inside === "" || inside.startsWith("..") || path.isAbsolute(inside))
    throw new BundleFileError(`${rel} points outside the bundle (a symlink to ${real}); it is not served`);
  return real;
}

/**
 * The bytes of one file of a skill bundle, `rel` ("/"-separated) below `dir`. A skill folder is
 * untrusted: the path may not climb out (`..`, absolute), its real path (symlinks followed) must
 * stay inside the bundle's real folder, the file is opened non-blocking without following a last
 * symlink and checked on the descriptor to be a regular file (a FIFO never hangs the read), and
 * nothing over `maxBytes` is read.
 */
export async function readBundleFile(
  dir: string,
  rel: string,
  maxBytes = BUNDLE_FILE_MAX_BYTES,
): Promise<Buffer> {
  const real = await bundlePath(dir, rel);
  const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW).catch(
    () => {
      throw new BundleFileError(`${rel}: cannot be opened`);
    },
  );
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new BundleFileError(`${rel} is not a regular file`);
    if (info.size > maxBytes)
      throw new BundleFileError(
        `${rel} has ${info.size} bytes, over the ${maxBytes} a resource may have; read it with the read tool`,
      );
    const buf = Buffer.alloc(info.size);
    let length = 0;
    while (length < buf.length) {
      const { bytesRead } = await handle.read(buf, length, buf.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return buf.subarray(0, length);
  } finally {
    await handle.close();
  }
}
