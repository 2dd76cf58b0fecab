// The loopback redirect of an OAuth login (RFC 8252 section 7.3): a server on 127.0.0.1 that takes
// exactly one request at /callback, checks its state, and hands over the authorization code.
import type { IncomingMessage, ServerResponse } from "node:http";
import { importModule } from "../../../util/import-module.js";
import { foreignRequest, listenOnLoopback, loopbackHosts } from "../../../util/loopback.js";

export const CALLBACK_PATH = "/callback";

export interface Callback {
  /** The redirect URI to register and to send in the authorization request. */
  readonly url: string;
  readonly port: number;
  /**
   * The code of the one request that reaches /callback, once its state equals `state()` (read
   * when the request arrives). Rejects on a wrong state, an error from the authorization server,
   * or when nothing came within the timeout.
   */
  readonly code: Promise<string>;
  close(): void;
}

// Static pages: nothing from the request is echoed (a crafted query cannot script the page).
const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><p>${text}</p>\n`;

/** Listens on 127.0.0.1:`port` (0: a free one) until one callback arrived, `timeoutMs` passed, or close(). */
export async function listenForCallback(o: {
  port: number;
  timeoutMs: number;
  state: () => string | undefined;
  /** For messages: which server the login is for. */
  server: string;
}): Promise<Callback> {
  let settle: { resolve(code: string): void; reject(error: Error): void } | undefined;
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // a caller that gave up (closed) must not leave an unhandled rejection behind
  code.catch(() => {});
  let done = false;
  let timer: NodeJS.Timeout | undefined;
  let hosts: ReadonlySet<string> = new Set();
  const finish = (error: Error | undefined, value?: string) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    http.close();
    http.closeAllConnections?.();
    if (error) settle?.reject(error);
    else settle?.resolve(value as string);
  };
  // node:http is loaded by a login only, not by every plane that lists an HTTP server
  const { createServer } = await importModule<typeof import("node:http")>("node:http");
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    // a page elsewhere that points its name at 127.0.0.1 (DNS rebinding) is not the browser's redirect
    if (
      foreignRequest(req.headers, hosts) !== undefined ||
      req.method !== "GET" ||
      url.pathname !== CALLBACK_PATH
    ) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    const failed = callbackProblem(url, o.state());
    res.writeHead(failed ? 400 : 200, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
    });
    res.end(
      failed
        ? page("toolplane: login failed", "toolplane did not log in; the terminal says why.")
        : page("toolplane: logged in", "toolplane is logged in. You can close this window."),
      // the one request is answered: nothing else is taken
      () =>
        finish(
          failed ? new Error(`MCP server "${o.server}": ${failed}`) : undefined,
          url.searchParams.get("code") ?? "",
        ),
    );
  });
  const port = await listenOnLoopback(http, o.port);
  hosts = loopbackHosts(port);
  timer = setTimeout(
    () =>
      finish(
        new Error(
          `MCP server "${o.server}": no answer from the browser within ${Math.round(o.timeoutMs / 1000)} s; log in again`,
        ),
      ),
    o.timeoutMs,
  );
  timer.unref?.();
  return {
    url: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    port,
    code,
    close: () => finish(new Error(`MCP server "${o.server}": the login was abandoned`)),
  };
}

/** Why a callback request cannot be used, or undefined when it carries a code for this login. */
function callbackProblem(url: URL, expected: string | undefined): string | undefined {
  const q = url.searchParams;
  // the state is checked first: an error page another site sends here says nothing about this login
  if (expected === undefined || q.get("state") !== expected)
    return "the login's redirect carried the wrong state (not the browser this login opened?); log in again";
  const error = q.get("error");
  if (error !== null) {
    const said = q.get("error_description");
    return `the authorization server refused: ${oneLine(error)}${said ? ` (${oneLine(said)})` : ""}`;
  }
  if (!q.get("code")) return "the login's redirect carried no code; log in again";
  return undefined;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").slice(0, 200);
}
