/**
 * Rejects with `new Error(message)` after `ms` even when `promise` never settles (a peer that
 * never answers, a module whose top-level await never ends). `keepAlive` keeps the process up for
 * the wait: without it, a CLI whose only pending work is that promise would exit 0 with no output.
 */
export async function withDeadline<T>(
  promise: Promise<T>,
  ms: number,
  message: string,
  options: { keepAlive?: boolean } = {},
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    if (!options.keepAlive) timer.unref?.();
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
