// Where toolplane keeps what an MCP login produced: one file per server and client identity under
// $TOOLPLANE_HOME/mcp-oauth (the user's own folder, never a project's), readable by the user alone,
// written whole to a temporary file and renamed over the old one.
//
// A login belongs to the server's URL, not to the name a configuration gives it: a project that
// names its own server like one of the user's (or renames one) reaches a different file, so no
// configuration can point another URL at a token the user holds. The client identity is part of
// the key too: a configuration with its own clientId never reads, refreshes with or drops the
// tokens another client obtained.
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { ownedByMe } from "../../../util/owned-by-me.js";
import { toolplaneHome } from "../../../util/paths.js";

/** One login as it is kept on disk. */
export interface StoredLogin {
  version: 1;
  /** The MCP server's URL the login is for (checked on read: a file is never used for another). */
  serverUrl: string;
  /** The client identity: the configured clientId or clientMetadataUrl, "" for a registered client. */
  client: string;
  /** The authorization server's answer, stamped by the SDK with the issuer it came from. */
  tokens?: OAuthTokens;
  /** When the tokens were saved (ms since the epoch): with `expires_in`, when they expire. */
  obtainedAt?: number;
  /** The client a dynamic registration (or a metadata document) gave, stamped with its issuer. */
  registration?: OAuthClientInformationMixed;
}

/** A login file larger than this is not read: a real one is a few KiB. */
const MAX_BYTES = 1024 * 1024;

export function loginsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(toolplaneHome(env), "mcp-oauth");
}

/** The server URL as a login is keyed (a fragment never reaches the server, so it is dropped). */
export function canonicalServerUrl(url: string): string {
  const u = new URL(url);
  u.hash = "";
  return u.href;
}

/** Which client a login belongs to: the configured clientId or metadata document, "" for a registered one. */
export function clientIdentity(oauth: { clientId?: string; clientMetadataUrl?: string } | undefined): string {
  return oauth?.clientId ?? oauth?.clientMetadataUrl ?? "";
}

/** The file of one server's login for one client identity. */
export function loginFile(dir: string, serverUrl: string, client: string): string {
  const key = createHash("sha256")
    .update(JSON.stringify([canonicalServerUrl(serverUrl), client]))
    .digest("hex")
    .slice(0, 32);
  return path.join(dir, `${key}.json`);
}

/** A login file that is there but cannot be used: what is wrong, and what to do. */
export class LoginFileError extends Error {
  constructor(file: string, problem: string, server: string) {
    super(
      `${file} ${problem}; toolplane keeps MCP logins there: remove it (or run toolplane mcp logout ${server}) and log in again`,
    );
    this.name = "LoginFileError";
  }
}

/**
 * One server's login file. Reads are cached by the file's change time and size, so a request costs
 * one lstat, and a login, refresh or logout by another toolplane process is seen at the next request.
 */
export class LoginStore {
  private cached: { stamp: string; login: StoredLogin | undefined } | undefined;

  constructor(
    readonly file: string,
    readonly serverUrl: string,
    readonly client: string,
    /** The server's configured name, for messages. */
    private readonly server: string,
  ) {}

  read(): StoredLogin | undefined {
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        this.cached = undefined;
        return undefined;
      }
      throw new LoginFileError(this.file, `cannot be read (${(error as Error).message})`, this.server);
    }
    const stamp = `${st.ino}:${st.mtimeMs}:${st.size}`;
    if (this.cached?.stamp === stamp) return this.cached.login;
    if (!st.isFile() || st.size > MAX_BYTES)
      throw new LoginFileError(this.file, `is not a regular file of at most ${MAX_BYTES} bytes`, this.server);
    if (process.platform !== "win32") {
      if (!ownedByMe(st.uid)) throw new LoginFileError(this.file, "belongs to another user", this.server);
      if ((st.mode & 0o077) !== 0)
        throw new LoginFileError(
          this.file,
          `can be read by others (mode ${(st.mode & 0o777).toString(8)}); a login must be yours alone`,
          this.server,
        );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.file, "utf8"));
    } catch (error) {
      throw new LoginFileError(this.file, `is not JSON (${(error as Error).message})`, this.server);
    }
    const problem = shapeProblem(parsed, this.serverUrl, this.client);
    if (problem) throw new LoginFileError(this.file, problem, this.server);
    const login = parsed as StoredLogin;
    this.cached = { stamp, login };
    return login;
  }

  /** Changes the login with `change` and writes it whole, or removes the file when nothing is left. */
  update(change: (login: StoredLogin) => void): void {
    const login: StoredLogin = structuredClone(this.readOrEmpty());
    change(login);
    if (login.tokens === undefined && login.registration === undefined) {
      this.remove();
      return;
    }
    const dir = path.dirname(this.file);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    try {
      writeFileSync(temp, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600, flag: "wx" });
      renameSync(temp, this.file);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    this.cached = undefined;
  }

  /** Forgets the login; true when there was one. */
  remove(): boolean {
    this.cached = undefined;
    try {
      rmSync(this.file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
  }

  /** The login, or an empty one when the file is missing or unusable (an update rewrites it whole). */
  private readOrEmpty(): StoredLogin {
    let login: StoredLogin | undefined;
    try {
      login = this.read();
    } catch {
      login = undefined;
    }
    return login ?? { version: 1, serverUrl: this.serverUrl, client: this.client };
  }
}

function shapeProblem(v: unknown, serverUrl: string, client: string): string | undefined {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return "does not hold a JSON object";
  const o = v as Record<string, unknown>;
  if (o.version !== 1) return `has version ${JSON.stringify(o.version)}, not 1`;
  if (o.serverUrl !== serverUrl || o.client !== client)
    return `is a login for ${JSON.stringify(o.serverUrl)}, not for ${JSON.stringify(serverUrl)}`;
  const tokens = o.tokens as Record<string, unknown> | undefined;
  if (
    tokens !== undefined &&
    (typeof tokens !== "object" || tokens === null || typeof tokens.access_token !== "string")
  )
    return "holds tokens without an access_token";
  const registration = o.registration as Record<string, unknown> | undefined;
  if (
    registration !== undefined &&
    (typeof registration !== "object" || registration === null || typeof registration.client_id !== "string")
  )
    return "holds a client registration without a client_id";
  if (o.obtainedAt !== undefined && typeof o.obtainedAt !== "number")
    return "holds an obtainedAt that is not a number";
  return undefined;
}

/**
 * Removes every login kept for `serverUrl`: the file of the configured client identity, whatever
 * it holds, and any other identity's (a changed clientId leaves the old one behind otherwise);
 * returns the files removed. Another file that cannot be read is left alone: it names no server
 * this could be sure of.
 */
export function forgetLogins(dir: string, serverUrl: string, client: string): string[] {
  const url = canonicalServerUrl(serverUrl);
  const removed: string[] = [];
  // this configuration's own file goes whatever it holds (a corrupt one included)
  const own = loginFile(dir, url, client);
  if (new LoginStore(own, url, client, "").remove()) removed.push(own);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names.sort()) {
    if (!/^[0-9a-f]{32}\.json$/.test(name)) continue;
    const file = path.join(dir, name);
    try {
      if (lstatSync(file).size > MAX_BYTES) continue;
      const login = JSON.parse(readFileSync(file, "utf8")) as Partial<StoredLogin>;
      if (login?.serverUrl !== url) continue;
      rmSync(file);
      removed.push(file);
    } catch {
      // unreadable or gone meanwhile
    }
  }
  return removed;
}
