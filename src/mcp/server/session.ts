import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { MCP_IMPLEMENTATION } from "../config.js";
import { serverSdk } from "../sdk.js";
import { LogThreshold, type RequestExtra, requestChannel } from "./client-channel.js";
import { callResult } from "./content.js";
import { registerCompletion, registerLogging, registerResources } from "./handlers.js";
import { MissingArgumentError, promptListing, promptMessages } from "./prompts.js";
import { type Subscriber, Subscriptions } from "./subscriptions.js";
import {
  fingerprinted,
  type McpSessionTools,
  type Surface,
  sessionFactory,
  type ToolServerDeps,
} from "./surface.js";

/** One live MCP session: its SDK server, its tools, and the list it was last shown. */
interface Live {
  server: Server;
  tools: McpSessionTools;
  list: ReturnType<typeof fingerprinted> | undefined;
  known: string | undefined;
  off: (() => void) | undefined;
  subscriber: Subscriber;
}

/** How long a tool's elicitation or sampling waits for the client, unless the deps say otherwise. */
const CLIENT_TIMEOUT_MS = 300_000;

/**
 * Every live session of one `toolplane serve`, and the watcher that tells them when a list changed:
 * change events are debounced, the lists recomputed, and list_changed sent only to the sessions
 * whose list's fingerprint really moved (an invalidation that changes nothing is silent, and one
 * session's tool_search load is news to that session alone).
 */
export class SessionHub {
  private readonly sessions = new Map<Server, Live>();
  private readonly newSession: () => McpSessionTools;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private knownPrompts: string | undefined;
  private knownResources: string | undefined;
  /** resources/subscribe of every session, with the file watches behind them. */
  private readonly subscriptions: Subscriptions;
  /** The instructions a new session is given (see ToolServerDeps.instructions). */
  private instructions: string | undefined;
  private settled: Promise<void> = Promise.resolve();

  constructor(private readonly surface: Surface) {
    this.newSession = sessionFactory(surface.deps);
    this.subscriptions = new Subscriptions(async (uri) => surface.deps.resources?.fileOf?.(uri));
    this.unsubscribe = surface.deps.subscribe?.(() => {
      for (const live of this.sessions.values()) live.list = undefined;
      this.schedule();
    });
  }

  get deps(): ToolServerDeps {
    return this.surface.deps;
  }

  /** Records what the prompt list looks like now, so later changes are measured against it. */
  async prime(): Promise<void> {
    this.knownPrompts = (await this.surface.promptList()).fingerprint;
    this.knownResources = await this.surface.resourcesFingerprint();
    await this.readInstructions();
  }

  private async readInstructions(): Promise<void> {
    try {
      const text = await this.deps.instructions?.();
      this.instructions = text === "" ? undefined : text;
    } catch (error) {
      this.deps.log?.(`toolplane serve: reading the instructions failed: ${(error as Error).message}`);
    }
  }

  /** Resolves after the pending change check (if any) has run; for tests and shutdown. */
  idle(): Promise<void> {
    return this.settled;
  }

  /**
   * A new SDK server for one session (stdio has one; HTTP has one per client session), with its
   * own tool state. The SDK is loaded by createToolServer, which made this hub.
   */
  open(): Server {
    const { Server, CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema } =
      serverSdk();
    const { ListToolsRequestSchema, McpError } = serverSdk();
    const deps = this.deps;
    const server = new Server(MCP_IMPLEMENTATION, {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
        ...(deps.resources ? { resources: { subscribe: true, listChanged: true } } : {}),
      },
      ...(this.instructions !== undefined ? { instructions: this.instructions } : {}),
    });
    const live: Live = {
      server,
      tools: this.newSession(),
      list: undefined,
      known: undefined,
      off: undefined,
      subscriber: { updated: (uri) => void server.sendResourceUpdated({ uri }).catch(() => {}) },
    };
    live.off = live.tools.subscribe?.(() => {
      live.list = undefined;
      this.schedule();
    });
    const surface = this.surface;
    const listOf = async () => {
      live.list ??= fingerprinted(live.tools);
      const list = await live.list;
      live.known ??= list.fingerprint;
      return list;
    };
    const threshold = new LogThreshold();
    registerLogging(server, threshold);
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...(await listOf()).entries] }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const call = {
        id: String(extra.requestId),
        tool: request.params.name,
        args: request.params.arguments ?? {},
      };
      const token = request.params._meta?.progressToken;
      const client = requestChannel(
        server,
        extra as RequestExtra,
        token,
        threshold,
        deps.clientTimeoutMs ?? CLIENT_TIMEOUT_MS,
      );
      const result = await live.tools.run(call, extra.signal, client);
      const entry = (await listOf()).byName.get(request.params.name);
      return callResult(result, entry);
    });
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({
      prompts: promptListing((await surface.promptList()).sources),
    }));
    server.setRequestHandler(GetPromptRequestSchema, async (request) => {
      const { sources } = await surface.promptList();
      const prompt = sources.find((p) => p.name === request.params.name);
      if (!prompt) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `no prompt named "${request.params.name}"; list the prompts again`,
        );
      }
      try {
        return await promptMessages(prompt, request.params.arguments);
      } catch (error) {
        if (error instanceof MissingArgumentError) throw new McpError(ErrorCode.InvalidParams, error.message);
        throw error;
      }
    });
    registerCompletion(server, async () => (await surface.promptList()).sources, deps.resources);
    if (deps.resources) registerResources(server, deps.resources, this.subscriptions, live.subscriber);
    this.sessions.set(server, live);
    server.onclose = () => {
      live.off?.();
      this.subscriptions.forget(live.subscriber);
      this.sessions.delete(server);
    };
    return server;
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.unsubscribe?.();
    await Promise.all([...this.sessions.keys()].map((s) => s.close().catch(() => {})));
    for (const live of this.sessions.values()) live.off?.();
    this.sessions.clear();
    await this.subscriptions.close();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.settled = this.check();
    }, this.deps.debounceMs ?? 100);
    this.timer.unref?.();
  }

  private async check(): Promise<void> {
    this.surface.reset();
    await this.readInstructions();
    try {
      const prompts = (await this.surface.promptList()).fingerprint;
      const promptsMoved = prompts !== this.knownPrompts;
      this.knownPrompts = prompts;
      const resources = await this.surface.resourcesFingerprint();
      const resourcesMoved = this.deps.resources !== undefined && resources !== this.knownResources;
      this.knownResources = resources;
      for (const live of this.sessions.values()) {
        live.list ??= fingerprinted(live.tools);
        const tools = (await live.list).fingerprint;
        const toolsMoved = live.known !== undefined && tools !== live.known;
        live.known = tools;
        if (toolsMoved) await live.server.sendToolListChanged().catch(() => {});
        if (promptsMoved) await live.server.sendPromptListChanged().catch(() => {});
        if (resourcesMoved) await live.server.sendResourceListChanged().catch(() => {});
      }
    } catch (error) {
      this.deps.log?.(`toolplane serve: re-reading the tool set failed: ${(error as Error).message}`);
    }
  }
}
