import type { ToolplaneOptions } from "../assemble/index.js";
import { generateToken } from "../mcp/server/http-auth.js";
import { serveInspector } from "./server.js";
import { InspectSession } from "./session.js";

export type * from "./api-types.js";
export { InspectSession } from "./session.js";

export interface InspectOptions extends ToolplaneOptions {
  /** 0 picks a free port. */
  port: number;
  /** The token the URL carries (default: 256 random bits). */
  token?: string;
  /** Where the page's compiled scripts are (tests). */
  pageDir?: string;
}

export interface Inspector {
  /** Open this in a browser: the token is its first path segment. */
  url: string;
  port: number;
  session: InspectSession;
  close(): Promise<void>;
}

/** Opens the inspector's session for a directory and serves its page on 127.0.0.1. */
export async function startInspector(options: InspectOptions): Promise<Inspector> {
  const { port, token, pageDir, ...plane } = options;
  const session = await InspectSession.open(plane);
  try {
    const server = await serveInspector(session, {
      port,
      token: token ?? generateToken(),
      ...(pageDir ? { pageDir } : {}),
    });
    return {
      url: server.url,
      port: server.port,
      session,
      close: async () => {
        await server.close();
        await session.close();
      },
    };
  } catch (error) {
    await session.close();
    throw error;
  }
}
