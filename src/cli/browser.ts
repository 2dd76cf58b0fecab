// Opening a URL in the person's browser, for an MCP login: `$BROWSER` when set (as Python's
// webbrowser reads it: commands separated by the path delimiter, `%s` standing for the URL, else
// the URL appended), else the platform's opener. The URL goes to the program as one argument,
// never through a shell: it comes from a server's metadata.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { McpLoginHook } from "../mcp/client/oauth/session.js";

export type Opener = (url: string) => Promise<void>;

/** The commands that would open a URL here, in the order they are tried; empty when none can. */
export function browserCommands(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Array<(url: string) => string[]> {
  const own = env.BROWSER?.trim();
  if (own) {
    return own
      .split(platform === "win32" ? ";" : ":")
      .map((entry) => entry.trim().split(/\s+/).filter(Boolean))
      .filter((words) => words.length > 0)
      .map((words) => (url: string) => {
        const withUrl = words.map((w) => w.replaceAll("%s", url));
        return words.some((w) => w.includes("%s")) ? withUrl : [...words, url];
      });
  }
  if (platform === "darwin") return [(url) => ["open", url]];
  if (platform === "win32") return [(url) => ["rundll32", "url.dll,FileProtocolHandler", url]];
  // xdg-open without a display fails after the person has waited for nothing: not an opener
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return [];
  return onPath("xdg-open", env) ? [(url) => ["xdg-open", url]] : [];
}

/** Opens URLs with the first command that starts, or undefined when there is no opener here. */
export function browserOpener(env: NodeJS.ProcessEnv = process.env): Opener | undefined {
  const commands = browserCommands(env);
  if (commands.length === 0) return undefined;
  return async (url) => {
    let last: Error | undefined;
    for (const command of commands) {
      const [program, ...args] = command(url) as [string, ...string[]];
      try {
        await start(program, args, env);
        return;
      } catch (error) {
        last = error as Error;
      }
    }
    throw last ?? new Error("no browser command");
  };
}

/** Starts the program detached (a browser outlives toolplane), resolving once it has started. */
function start(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: "ignore", detached: true, env });
    child.once("error", (error) => reject(new Error(`${program}: ${error.message}`)));
    child.once("spawn", () => {
      child.unref();
      resolve();
    });
  });
}

function onPath(program: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? "")
    .split(path.delimiter)
    .some((dir) => dir !== "" && existsSync(path.join(dir, program)));
}

/**
 * The CLI's MCP login hook: says which server asks and where (the address is no secret: the
 * code comes back to toolplane's loopback only), then opens the browser when there is an opener.
 * Without one the person opens the address themselves (`toolplane mcp login` waits for them).
 */
export function cliLogin(opener: Opener | undefined, say: (line: string) => void): McpLoginHook {
  return {
    open: async (url, server) => {
      say(
        `toolplane: MCP server "${server}" asks you to log in; ${opener ? "opening your browser at" : "open this address in a browser on this machine"}:`,
      );
      say(`  ${url.href}`);
      if (!opener) return;
      try {
        await opener(url.href);
      } catch (error) {
        say(
          `toolplane: no browser could be opened (${(error as Error).message}); open the address above yourself`,
        );
      }
    },
  };
}
