import { Toolplane } from "../assemble/index.js";
import { progress } from "../util/progress.js";
import { type CommonOptions, say } from "./common.js";

export async function openToolplane(
  opts: CommonOptions,
  extra: Pick<Parameters<typeof Toolplane.open>[0], "mcpServers" | "mcpLogin" | "onElicitation"> = {},
): Promise<Toolplane> {
  const open: Parameters<typeof Toolplane.open>[0] = {
    cwd: opts.cwd ?? process.cwd(),
    set: opts.set ?? [],
    log: say,
    // drawn only when stderr is a terminal
    progress: (label) => progress(label),
  };
  if (opts.scope !== undefined) open.scope = opts.scope;
  if (extra.mcpServers) open.mcpServers = extra.mcpServers;
  if (extra.mcpLogin) open.mcpLogin = extra.mcpLogin;
  if (extra.onElicitation) open.onElicitation = extra.onElicitation;
  return Toolplane.open(open);
}
