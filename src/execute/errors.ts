/**
 * Thrown by a tool whose raw output must be parsed (search JSON, a listing) when it passes
 * results.rawMaxBytes: parsing a cut stream would give a wrong answer, so the call fails instead.
 * The host turns it into an `output_too_large` result.
 */
export class OutputTooLargeError extends Error {
  constructor(
    readonly limit: number,
    readonly seen: number,
    hint = "narrow the request (a smaller path, a more specific pattern) and call again",
  ) {
    super(`the raw output passed ${limit} bytes (results.rawMaxBytes) after ${seen} bytes; ${hint}`);
    this.name = "OutputTooLargeError";
  }
}

/**
 * Reads a stream whose bytes must be parsed whole, failing past `maxBytes` rather than returning
 * a cut prefix. For tools such as grep that spawn a process and parse its output.
 */
export async function readLimited(
  source: AsyncIterable<string | Uint8Array>,
  maxBytes: number,
  hint?: string,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of source) {
    const buf = typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk);
    total += buf.length;
    if (total > maxBytes) throw new OutputTooLargeError(maxBytes, total, hint);
    chunks.push(buf);
  }
  return Buffer.concat(chunks, total);
}
