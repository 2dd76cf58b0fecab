import type { IncomingMessage } from "node:http";

export type Body = { ok: true; text: string } | { ok: false; bytes: number };

/**
 * Reads a request body up to `maxBytes`. A declared Content-Length over the limit is refused
 * without reading; otherwise reading stops (the request is paused, nothing more is kept) as soon as
 * more than the limit arrived. Chunks are joined once at the end.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Body> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes)
    return Promise.resolve({ ok: false, bytes: declared });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      done();
      req.pause();
      chunks.length = 0;
      resolve({ ok: false, bytes: size });
    };
    const onEnd = () => {
      done();
      resolve({ ok: true, text: Buffer.concat(chunks, size).toString("utf8") });
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}
