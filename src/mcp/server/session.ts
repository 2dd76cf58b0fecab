import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { toMcpContent } from "../client/content.js";
import { MCP_IMPLEMENTATION } from "../config.js";
import { serverSdk } from "../sdk.js";
import { promptListing, promptMessages } from "./prompts.js";
import type { Surface, ToolServerDeps } from "./surface.js";

/**
 * Every live session of one `toolplane serve`, and the one watcher that tells them when the tool or
 * prompt list changed: change events are debounced, the lists recomputed, and list_changed sent
 * only when a list's fingerprint really moved (an invalidation that changes nothing is silent).
 */
export class SessionHub {
  private readonly sessions = new Set<Server>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private known: { tools?: string; prompts?: string } = {};
  private settled: Promise<void> = Promise.resolve();

  constructor(private readonly surface: Surface) {
    const deps = surface.deps;
    this.unsubscribe = deps.subscribe?.(() => this.schedule());
  }

  get deps(): ToolServerDeps {
    return this.surface.deps;
  }

  /** Records what the lists look like now, so later changes are measured against it. */
  async prime(): Promise<void> {
    this.known.tools = (await this.surface.toolList()).fingerprint;
    this.known.prompts = (await this.surface.promptList()).fingerprint;
  }

  /** Resolves after the pending change check (if any) has run; for tests and shutdown. */
  idle(): Promise<void> {
    return this.settled;
  }

  /**
   * A new SDK server for one session (stdio has one; HTTP has one per client session). The SDK is
   * loaded by createToolServer, which made this hub.
   */
  open(): Server {
    const { Server, CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema } =
      serverSdk();
    const { ListToolsRequestSchema, McpError } = serverSdk();
    const server = new Server(MCP_IMPLEMENTATION, {
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true } },
    });
    const surface = this.surface;
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: (await surface.toolList()).entries,
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const call = {
        id: String(extra.requestId),
        tool: request.params.name,
        args: request.params.arguments ?? {},
      };
      const result = await surface.deps.run(call, extra.signal);
      return { content: toMcpContent(result.content), isError: result.isError };
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
      return promptMessages(prompt, request.params.arguments);
    });
    this.sessions.add(server);
    server.onclose = () => this.sessions.delete(server);
    return server;
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.unsubscribe?.();
    await Promise.all([...this.sessions].map((s) => s.close().catch(() => {})));
    this.sessions.clear();
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
    try {
      const tools = (await this.surface.toolList()).fingerprint;
      const prompts = (await this.surface.promptList()).fingerprint;
      const toolsMoved = tools !== this.known.tools;
      const promptsMoved = prompts !== this.known.prompts;
      this.known = { tools, prompts };
      for (const session of this.sessions) {
        if (toolsMoved) await session.sendToolListChanged().catch(() => {});
        if (promptsMoved) await session.sendPromptListChanged().catch(() => {});
      }
    } catch (error) {
      this.deps.log?.(`toolplane serve: re-reading the tool set failed: ${(error as Error).message}`);
    }
  }
}
