import { loadServerSdk } from "../sdk.js";
import { BoundedStdioServerTransport } from "../stdio/server-transport.js";
import type { SessionHub } from "./session.js";

export interface StdioServeOptions {
  /** The largest message read from the client (serve.maxRequestBytes). */
  maxMessageBytes: number;
  log?: (line: string) => void;
}

/** Serves one session over this process's stdin/stdout; resolves when the client goes away. */
export async function serveStdio(hub: SessionHub, options: StdioServeOptions): Promise<void> {
  await loadServerSdk();
  const server = hub.open();
  const closed = new Promise<void>((resolve) => {
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      resolve();
    };
    // the transport does not notice end of input: a client that closes stdin is gone
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  const transport = new BoundedStdioServerTransport(process.stdin, process.stdout, {
    maxMessageBytes: options.maxMessageBytes,
    limitKey: "serve.maxRequestBytes",
    ...(options.log ? { log: options.log } : {}),
  });
  await server.connect(transport);
  await closed;
}
