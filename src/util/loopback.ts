import type { IncomingHttpHeaders, Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Listens on 127.0.0.1:`port` (0: any free port) and returns the port. A port that is taken
 * rejects with code EADDRINUSE and a message that says so in words; the caller, which knows how
 * the person chose the port, adds how to choose another.
 */
export async function listenOnLoopback(http: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    http.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") error.message = `port ${port} on 127.0.0.1 is already in use`;
      if (error.code === "EACCES") error.message = `port ${port} on 127.0.0.1 needs privileges to listen on`;
      reject(error);
    });
    http.listen(port, "127.0.0.1", () => resolve());
  });
  return (http.address() as AddressInfo).port;
}

/** The Host values a server bound to 127.0.0.1:`port` answers to. */
export function loopbackHosts(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/**
 * Why a request to a loopback server is refused, or undefined. A page on another site can point
 * its own name at 127.0.0.1 (DNS rebinding) and reach the server from the person's browser: its
 * requests then name that site in Host, and in Origin when the browser sends one. Both must name
 * this server (see the MCP spec's transport security guidance).
 */
export function foreignRequest(
  headers: IncomingHttpHeaders,
  allowed: ReadonlySet<string>,
): "forbidden host" | "forbidden origin" | undefined {
  if (!allowed.has(headers.host ?? "")) return "forbidden host";
  const origin = headers.origin;
  if (origin !== undefined && !allowed.has(origin.replace(/^https?:\/\//, ""))) return "forbidden origin";
  return undefined;
}
