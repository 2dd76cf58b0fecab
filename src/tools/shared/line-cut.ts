/**
 * The marker that ends a line cut to fit the result limits. It says how much of the line is not
 * shown and how long the whole line is (in the file's bytes), so a cut is never silent and the
 * count is the true one: a line is cut once, where it is read, never again by the host.
 */
export function lineCutMarker(restBytes: number, fullBytes: number): string {
  return ` … [line cut: ${restBytes} more bytes, ${fullBytes} in all]`;
}

/** The longest marker a line of `fullBytes` can get: room kept for it before the line is cut. */
export function lineCutMarkerMax(fullBytes: number): string {
  return lineCutMarker(fullBytes, fullBytes);
}

/**
 * The longest start of `text` with at most `maxUnits` UTF-16 code units and `maxBytes` bytes of
 * UTF-8, never splitting a surrogate pair.
 */
export function cutToFit(text: string, maxUnits: number, maxBytes: number): string {
  let end = Math.max(0, Math.min(text.length, maxUnits));
  if (end > 0 && end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  const out = text.slice(0, end);
  if (Buffer.byteLength(out) <= maxBytes) return out;
  // over the byte budget: cut on a character boundary
  const buf = Buffer.from(out, "utf8");
  let at = Math.max(0, maxBytes);
  while (at > 0 && (buf[at]! & 0xc0) === 0x80) at--;
  return buf.subarray(0, at).toString("utf8");
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
