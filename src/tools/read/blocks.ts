/** Bytes of a read block (page reads, chunk lookups): one index chunk. */
export const BLOCK_BYTES = 64 * 1024;

const idle: Buffer[] = [];
const MAX_IDLE = 4;

/**
 * Lends a block for the length of one call. A fresh 64 KiB buffer per read lives outside the JS
 * heap and is freed only when the GC gets round to it: a burst of reads would grow RSS for nothing.
 */
export async function withBlock<T>(use: (block: Buffer) => Promise<T>): Promise<T> {
  const block = idle.pop() ?? Buffer.allocUnsafeSlow(BLOCK_BYTES);
  try {
    return await use(block);
  } finally {
    if (idle.length < MAX_IDLE) idle.push(block);
  }
}
