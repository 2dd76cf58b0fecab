import path from "node:path";
import { servedEntries } from "../../assemble/providers.js";
import type { Toolplane } from "../../assemble/toolplane.js";
import type { ToolCall } from "../../execute/types.js";
import {
  combineResources,
  createToolServer,
  declaredPrompts,
  declaredResources,
  ElicitingApprover,
  generateToken,
  type McpSessionTools,
  type McpToolEntry,
  type SessionHub,
  serveHttp,
  serveStdio,
  skillPrompts,
  skillResources,
  tokenProblem,
} from "../../mcp/server/index.js";
import { attachmentsText } from "../../render/index.js";
import { FileWatch } from "../../util/file-watch.js";
import { type CommonOptions, portError, say, UsageError } from "../common.js";
import { openToolplane } from "../open.js";
import { TOKEN_VARIABLE } from "../serve-token.js";

interface ServeOptions extends CommonOptions {
  http?: string;
  yes?: boolean;
  token?: string;
  /** false with --no-auth */
  auth?: boolean;
  /** `NAME=SCOPE`, repeatable: another scope chain served at /mcp/NAME (HTTP only). */
  endpoint?: string[];
}

/**
 * One hub for one scope view of the plane. Each MCP session is a session of its own (its loaded
 * tools, the files it read), and lists what `toolplane catalog --provider mcp` prints: MCP
 * clients cap their tool lists too (Cursor 40, OpenAI 128 functions), so resident tools,
 * tool_search when anything is deferred, then the tools it loaded (a load sends list_changed to
 * that session). Every call goes through the execution host: permissions, validation, timeouts,
 * limits, spill. An ask is approved by --yes, else put to the client's user (ElicitingApprover).
 */
async function hubFor(plane: Toolplane, yes: boolean): Promise<SessionHub> {
  const askTimeoutMs = plane.config.get("serve.askTimeoutMs") as number;
  const session = (): McpSessionTools => {
    const own = plane.newSession();
    // without --yes an ask is put to the client's user through elicitation (denied when it cannot ask)
    // its calls come from the mcp catalog it lists
    const approver = new ElicitingApprover(askTimeoutMs);
    const host = own.host({ provider: "mcp", log: say, ask: yes ? async () => true : approver.ask });
    return {
      list: async () => (await own.catalog("mcp")).tools as McpToolEntry[],
      run: (call: ToolCall, signal: AbortSignal, client) => {
        const run = () => host.call(call, { signal, ...(client ? { client } : {}) });
        return call.id === undefined ? run() : approver.run({ ...call, id: call.id }, client, run);
      },
      subscribe: (listener) => own.deferral.session.onLoad(() => listener()),
    };
  };
  return createToolServer({
    session,
    // a tools module's prompts win a name a skill also has (both are the project's own)
    prompts: async () => {
      const declared = declaredPrompts(servedEntries(plane));
      const taken = new Set(declared.map((p) => p.name));
      return [...declared, ...skillPrompts(await plane.skillsView()).filter((p) => !taken.has(p.name))];
    },
    resources: combineResources([
      declaredResources(servedEntries(plane)),
      skillResources(() => plane.skillsView()),
    ]),
    clientTimeoutMs: askTimeoutMs,
    // MCP has no system text: the skill listing and deferred names reach a client's model as the
    // server's instructions (fixed per session at initialize; skills are also prompts)
    instructions: async () => attachmentsText((await plane.catalog("mcp")).attachments),
    subscribe: (listener) => {
      const offTools = plane.tools.on("invalidated", listener);
      const offSkills = plane.skills.on("invalidated", () => listener());
      return () => {
        offTools();
        offSkills();
      };
    },
    log: say,
  });
}

/**
 * The user's and the project's config.json, watched: an edit applies to the live plane (run-time
 * keys from the next call; an assembly key or permission rule sends list_changed), a key read
 * only at open says to restart, and a file that does not load keeps the configuration as it was.
 */
async function followConfigFiles(plane: Toolplane): Promise<{ close(): Promise<void> }> {
  const files = [
    path.join(plane.config.home, "config.json"),
    path.join(plane.config.projectRoot, ".toolplane", "config.json"),
  ];
  let timer: NodeJS.Timeout | undefined;
  const apply = () => {
    try {
      const { changed, needsRestart } = plane.reload();
      if (needsRestart.length > 0)
        say(
          `toolplane serve: ${needsRestart.join(", ")} changed: read at start only, so nothing was applied; restart serve`,
        );
      else if (changed.length > 0) say(`toolplane serve: configuration reloaded (${changed.join(", ")})`);
    } catch (error) {
      say(
        `toolplane serve: the configuration did not load, the previous one stays: ${(error as Error).message}`,
      );
    }
  };
  const watch = await FileWatch.start(files, () => {
    clearTimeout(timer);
    // an editor's save is often several events: read once they settle
    timer = setTimeout(apply, 100);
  });
  return {
    close: async () => {
      clearTimeout(timer);
      await watch.close();
    },
  };
}

/** `--endpoint NAME=SCOPE` values, checked: HTTP only, a path-safe name, each name once. */
function parseEndpoints(values: readonly string[], http: boolean): Array<[string, string]> {
  if (values.length > 0 && !http)
    throw new UsageError("--endpoint needs --http: stdio serves one scope (give it with --scope)");
  const out = new Map<string, string>();
  for (const value of values) {
    const at = value.indexOf("=");
    const name = at < 0 ? "" : value.slice(0, at);
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(name))
      throw new UsageError(
        `--endpoint "${value}": give NAME=SCOPE, with NAME of letters, digits, - and _ (e.g. reviewer='session-1>agent:reviewer')`,
      );
    if (out.has(name)) throw new UsageError(`--endpoint: the name "${name}" is given twice`);
    out.set(name, value.slice(at + 1));
  }
  return [...out];
}

/** `toolplane serve`: its options and help are in commands/serve.ts, loaded without this module. */
export const action = async (opts: ServeOptions) => {
  const port = opts.http === undefined ? undefined : Number(opts.http);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new UsageError(`--http needs a port number from 0 to 65535, got "${opts.http}"`);
  }
  const auth = chooseAuth(opts, port !== undefined);
  // usage errors first: nothing is opened or watched for a command line that cannot run
  const endpoints = parseEndpoints(opts.endpoint ?? [], port !== undefined);
  const plane = await openToolplane(opts);
  // Skills are watched like `skills --watch` does: a change reaches prompts/list (and tools/list
  // where it moves the tool set) with a list_changed notification, without a restart.
  try {
    await plane.watchSkills({ onError: (e) => say(`toolplane serve: watching skills: ${e.message}`) });
  } catch (error) {
    say(`toolplane serve: skill roots are not watched (${(error as Error).message}); restart to see changes`);
  }
  const configFiles = await followConfigFiles(plane);
  const hub = await hubFor(plane, opts.yes === true);
  const extra = new Map<string, SessionHub>();
  for (const [name, scope] of endpoints)
    extra.set(name, await hubFor(plane.scoped(scope), opts.yes === true));
  const maxRequestBytes = plane.config.get("serve.maxRequestBytes") as number;
  let stop: () => Promise<void> = async () => {};
  const done = new Promise<void>((resolve) => {
    const quit = () => resolve();
    process.once("SIGINT", quit);
    process.once("SIGTERM", quit);
    if (port === undefined) serveStdio(hub, { maxMessageBytes: maxRequestBytes, log: say }).then(quit, quit);
  });
  // a person who ran this in a terminal sees why nothing happens (an MCP client pipes stdin)
  if (port === undefined && process.stdin.isTTY)
    say(
      "toolplane serve: speaking MCP (JSON-RPC) on stdin/stdout; start it from an MCP client, or press Ctrl-C to stop",
    );
  if (port !== undefined) {
    const handle = await serveHttp(hub, {
      port,
      token: auth.token,
      maxRequestBytes,
      maxSessions: plane.config.get("serve.maxSessions") as number,
      sessionIdleMs: plane.config.get("serve.sessionIdleMs") as number,
      endpoints: extra,
      log: say,
    }).catch((error) => {
      throw portError(error, "--http");
    });
    stop = handle.close;
    say(`toolplane serve: listening on ${handle.url}`);
    for (const line of auth.notice) say(line);
    for (const [name, scope] of endpoints) say(`toolplane serve: scope "${scope}" on ${handle.url}/${name}`);
  }
  await done;
  await configFiles.close();
  await hub.close();
  for (const h of extra.values()) await h.close();
  await stop();
  await plane.close();
};

/** The token HTTP requires (null: none) and what to tell the user about it; usage errors first. */
function chooseAuth(opts: ServeOptions, http: boolean): { token: string | null; notice: string[] } {
  const noAuth = opts.auth === false;
  if (!http) {
    if (noAuth || opts.token !== undefined)
      throw new UsageError("--token and --no-auth apply to --http only");
    return { token: null, notice: [] };
  }
  if (noAuth) {
    if (opts.token !== undefined) throw new UsageError("--token and --no-auth cannot be used together");
    return {
      token: null,
      notice: [
        "toolplane serve: WARNING: --no-auth: no token is required. Every local user and process that can reach " +
          "this port can list and run these tools with your permissions (read your files, run commands). " +
          "Use it only on a machine nobody else uses, and never forward the port.",
      ],
    };
  }
  const fromEnv = process.env[TOKEN_VARIABLE];
  const given = opts.token ?? (fromEnv === "" ? undefined : fromEnv);
  if (given === undefined) {
    const token = generateToken();
    return {
      token,
      notice: [
        `toolplane serve: bearer token (new for this run): ${token}`,
        `toolplane serve: clients send the header 'Authorization: Bearer <token>'; set --token or ${TOKEN_VARIABLE} to choose it`,
      ],
    };
  }
  const problem = tokenProblem(given);
  if (problem) throw new UsageError(`${opts.token !== undefined ? "--token" : TOKEN_VARIABLE}: ${problem}`);
  return {
    token: given,
    notice: ["toolplane serve: clients must send 'Authorization: Bearer <your token>'"],
  };
}
