import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ClientHandlers, LogLevel } from "../../declare/client.js";
import { LOG_LEVELS } from "../../declare/client.js";

/** What the SDK hands a request handler that this needs (RequestHandlerExtra). */
export interface RequestExtra {
  requestId: string | number;
  signal: AbortSignal;
  sendNotification: (notification: { method: string; params?: Record<string, unknown> }) => Promise<void>;
}

/** The least severe log level a session is sent (`logging/setLevel`; info until a client sets one). */
export class LogThreshold {
  level: LogLevel = "info";

  allows(level: LogLevel): boolean {
    return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(this.level);
  }
}

/**
 * One tools/call's answers to what its tool asks, sent on that request (so over HTTP they travel
 * on the call's own SSE stream): progress when the request carried a progressToken, log messages
 * at or above the session's level, and elicitation and sampling only when the client declared
 * the capability at initialize (otherwise the tool's request throws ClientUnavailableError).
 */
export function requestChannel(
  server: Server,
  extra: RequestExtra,
  progressToken: string | number | undefined,
  threshold: LogThreshold,
  timeoutMs: number,
): ClientHandlers {
  const caps = server.getClientCapabilities();
  const send = (method: string, params: Record<string, unknown>) => {
    // a client that went away loses the notification, never the call
    extra.sendNotification({ method, params }).catch(() => {});
  };
  const channel: ClientHandlers = {
    onLog: (m) => {
      if (threshold.allows(m.level))
        send("notifications/message", {
          level: m.level,
          data: m.data,
          ...(m.logger ? { logger: m.logger } : {}),
        });
    },
  };
  if (progressToken !== undefined)
    channel.onProgress = (u) => send("notifications/progress", { progressToken, ...u });
  const options = (signal: AbortSignal) => ({
    relatedRequestId: extra.requestId,
    signal: AbortSignal.any([signal, extra.signal]),
    timeout: timeoutMs,
  });
  if (caps?.elicitation?.form)
    // the SDK checks an accepted answer against the form too
    channel.onElicit = async (request, signal) => {
      // ElicitField is looser than the SDK's union of field types; the client checks the form
      const params = { mode: "form", ...request } as Parameters<Server["elicitInput"]>[0];
      const got = await server.elicitInput(params, options(signal));
      return got as Awaited<ReturnType<NonNullable<ClientHandlers["onElicit"]>>>;
    };
  if (caps?.sampling)
    channel.onSample = async (request, signal) => {
      const got = await server.createMessage(request, options(signal));
      return got as Awaited<ReturnType<NonNullable<ClientHandlers["onSample"]>>>;
    };
  return channel;
}
