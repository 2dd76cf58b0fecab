import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

/**
 * Opening a FIFO for reading blocks until a writer comes (forever, for a planted one), and a
 * device like /dev/zero never ends. Files that come from a repository or a user's folders are
 * opened non-blocking and checked with fstat on the open descriptor (no race with a swap between
 * a stat and the open): anything but a regular file is refused before a byte is read.
 */
export class NotRegularFileError extends Error {
  readonly code = "ENOTREG";
  constructor(
    readonly file: string,
    /** "a FIFO", "a character device", ... */
    readonly kind: string,
  ) {
    super(`${file} is ${kind}, not a regular file`);
    this.name = "NotRegularFileError";
  }
}

export class FileTooLargeError extends Error {
  readonly code = "ETOOLARGE";
  constructor(
    readonly file: string,
    readonly limit: number,
  ) {
    super(`${file} is larger than ${limit} bytes`);
    this.name = "FileTooLargeError";
  }
}

const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Opens a regular file for reading; closes it and throws NotRegularFileError for anything else. */
export function openRegularSync(file: string): { fd: number; size: number } {
  const fd = openSync(file, FLAGS);
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (!stats.isFile()) {
    closeSync(fd);
    throw new NotRegularFileError(file, kindOf(stats));
  }
  return { fd, size: stats.size };
}

/** The whole of a regular file, as UTF-8, if it is at most `maxBytes` (else FileTooLargeError). */
export function readRegularFileSync(file: string, maxBytes: number): string {
  const { fd, size } = openRegularSync(file);
  try {
    if (size > maxBytes) throw new FileTooLargeError(file, maxBytes);
    // read up to one byte past the limit: a file that grew since fstat is caught too
    let buf = Buffer.alloc(Math.min(maxBytes + 1, size + 1));
    let length = 0;
    for (;;) {
      if (length === buf.length) {
        if (length > maxBytes) throw new FileTooLargeError(file, maxBytes);
        const bigger = Buffer.alloc(Math.min(maxBytes + 1, buf.length * 2 + 4096));
        buf.copy(bigger, 0, 0, length);
        buf = bigger;
      }
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return buf.toString("utf8", 0, length);
  } finally {
    closeSync(fd);
  }
}

/** How to name what a path turned out to be. */
export function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

/** At most the first `maxBytes` of a regular file, and its size (for files read only in part). */
export function readRegularHeadSync(file: string, maxBytes: number): { head: Buffer; size: number } {
  const { fd, size } = openRegularSync(file);
  try {
    const buf = Buffer.alloc(Math.min(maxBytes, size));
    let length = 0;
    while (length < buf.length) {
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return { head: buf.subarray(0, length), size };
  } finally {
    closeSync(fd);
  }
}
