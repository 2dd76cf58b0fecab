import type { AnyTool } from "../../declare/types.js";
import type { Registry } from "../../register/registry.js";
import { GLOBAL_LAYER } from "../../register/registry.js";
import type { ServerInstructions } from "../../render/types.js";
import type { McpServerConfig } from "../config.js";
import { McpProvider, type McpProviderOptions } from "./provider.js";

export interface McpClients {
  readonly providers: readonly McpProvider[];
  provider(server: string): McpProvider | undefined;
  /** Each connected server's instructions, in server-name order (what the catalog attaches). */
  instructions(): ServerInstructions[];
  close(): Promise<void>;
}

export interface RegisterMcpOptions
  extends Pick<McpProviderOptions, "log" | "backoff" | "loginsDir" | "login" | "onElicitation"> {
  layer?: string;
}

/** Registers one provider per configured server, in name order; servers start on first read. */
export function registerMcpServers(
  registry: Registry<AnyTool>,
  servers: Readonly<Record<string, McpServerConfig>>,
  options: RegisterMcpOptions = {},
): McpClients {
  const { layer = GLOBAL_LAYER, ...shared } = options;
  const providers: McpProvider[] = [];
  for (const server of Object.keys(servers).sort()) {
    const config = servers[server] as McpServerConfig;
    const provider = new McpProvider({ server, config, ...shared });
    const handle = registry.register(layer, provider);
    provider.bind(() => handle.changed());
    providers.push(provider);
  }
  return {
    providers,
    provider: (server) => providers.find((p) => p.server === server),
    instructions: () =>
      providers.flatMap((p) => {
        const text = p.instructions;
        return text === undefined ? [] : [{ server: p.server, text }];
      }),
    close: async () => {
      await Promise.all(providers.map((p) => p.close()));
    },
  };
}
