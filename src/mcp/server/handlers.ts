// The request handlers of a session beside tools and prompts: logging/setLevel, resources
// (list, templates, read, subscribe) and completion/complete.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { serverSdk } from "../sdk.js";
import type { LogThreshold } from "./client-channel.js";
import type { PromptSource } from "./prompts.js";
import { completionOf, type ResourceSource } from "./resources.js";
import type { Subscriber, Subscriptions } from "./subscriptions.js";

/** MCP's "resource not found" error code. */
const RESOURCE_NOT_FOUND = -32002;

export function registerLogging(server: Server, threshold: LogThreshold): void {
  const { SetLevelRequestSchema } = serverSdk();
  // replaces the SDK's own handler: the level is this session's, and serve filters by it
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    threshold.level = request.params.level;
    return {};
  });
}

export function registerResources(
  server: Server,
  resources: ResourceSource,
  subscriptions: Subscriptions,
  subscriber: Subscriber,
): void {
  const {
    ErrorCode,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    McpError,
    ReadResourceRequestSchema,
    SubscribeRequestSchema,
    UnsubscribeRequestSchema,
  } = serverSdk();
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [...(await resources.list())],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [...resources.templates()],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    let contents: Awaited<ReturnType<ResourceSource["read"]>>;
    try {
      contents = await resources.read(uri);
    } catch (error) {
      throw new McpError(ErrorCode.InvalidParams, `cannot read ${uri}: ${(error as Error).message}`);
    }
    if (!contents)
      throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}; list the resources or templates`);
    return { contents: [contents] };
  });
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    try {
      await subscriptions.subscribe(subscriber, request.params.uri);
    } catch (error) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `cannot subscribe to ${request.params.uri}: ${(error as Error).message}`,
      );
    }
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscriptions.unsubscribe(subscriber, request.params.uri);
    return {};
  });
}

export function registerCompletion(
  server: Server,
  prompts: () => Promise<readonly PromptSource[]>,
  resources: ResourceSource | undefined,
): void {
  const { CompleteRequestSchema, ErrorCode, McpError } = serverSdk();
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params;
    const context = request.params.context?.arguments ?? {};
    let values: readonly string[] = [];
    if (ref.type === "ref/prompt") {
      const prompt = (await prompts()).find((p) => p.name === ref.name);
      if (!prompt)
        throw new McpError(ErrorCode.InvalidParams, `no prompt named "${ref.name}"; list the prompts again`);
      values = (await prompt.complete?.(argument.name, argument.value, context)) ?? [];
    } else {
      values = (await resources?.complete?.(ref.uri, argument.name, argument.value, context)) ?? [];
    }
    return { completion: completionOf(values, argument.value) };
  });
}
