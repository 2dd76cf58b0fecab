/** How a person names a server on the command line: quoted when the shell would split or expand it. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_.:@%+=,/-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command that logs in to a configured MCP server. */
export function loginCommand(server: string): string {
  return `toolplane mcp login ${shellWord(server)}`;
}

/**
 * A server asked for authorization and no one can give it here: no stored login that still works,
 * and no way to open a browser (catalog, doctor, a harness without a login hook). Its message is
 * what every surface shows: `MCP server "NAME" needs login: toolplane mcp login NAME`.
 */
export class NeedsLoginError extends Error {
  constructor(
    readonly server: string,
    why?: string,
  ) {
    super(`MCP server "${server}" needs login: ${loginCommand(server)}${why ? ` (${why})` : ""}`);
    this.name = "NeedsLoginError";
  }
}

export function isNeedsLogin(error: unknown): error is NeedsLoginError {
  return error instanceof NeedsLoginError;
}
