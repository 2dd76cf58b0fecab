import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { SessionHub } from "./session.js";

/** Serves one session over this process's stdin/stdout; resolves when the client goes away. */
export async function serveStdio(hub: SessionHub): Promise<void> {
  const server = hub.open();
  const closed = new Promise<void>((resolve) => {
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      resolve();
    };
    // the SDK transport does not notice end of input: a client that closes stdin is gone
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  await server.connect(new StdioServerTransport());
  await closed;
}
