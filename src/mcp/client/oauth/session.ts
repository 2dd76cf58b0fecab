// OAuth for one HTTP MCP server, as the MCP authorization spec says: the bearer token on every
// request, and on a 401 (or a 403 `insufficient_scope`) an authorization, then the request again.
//
// Not the SDK's transport auth (`authProvider`): on a login that needs the browser it throws
// UnauthorizedError and leaves the caller to take the code and build a new connection, and its
// step-up refreshes the token it has (the same scopes) instead of asking for more. Here the fetch
// the transport uses does the whole round (loopback redirect included) and sends the request again,
// so a login in the middle of a call finishes that call. The protocol itself is the SDK's `auth()`.
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { withDeadline } from "../../../util/deadline.js";
import { importModule } from "../../../util/import-module.js";
import { isStdio, type McpOAuthConfig, type McpServerConfig } from "../../config.js";
import { type Callback, listenForCallback } from "./callback.js";
import { NeedsLoginError } from "./errors.js";
import { StoreBackedProvider } from "./provider.js";
import { canonicalServerUrl, clientIdentity, LoginStore, loginFile } from "./store.js";

type AuthSdk = typeof import("@modelcontextprotocol/sdk/client/auth.js");
const loadAuthSdk = () => importModule<AuthSdk>("@modelcontextprotocol/sdk/client/auth.js");

/** A way to send the person to an authorization page: the CLI opens a browser, a harness its own UI. */
export interface McpLoginHook {
  /** Shows the person `url`, the authorization page of `server`. */
  open(url: URL, server: string): Promise<void> | void;
  /** How long to wait for the browser's redirect (default 300,000 ms). */
  timeoutMs?: number;
}

export const DEFAULT_LOGIN_TIMEOUT_MS = 300_000;
/** Authorizations one request may trigger (a login, then one step-up): a server that keeps refusing ends here. */
export const MAX_AUTHORIZATIONS_PER_REQUEST = 2;
/**
 * The longest one request of an authorization (metadata discovery, registration, token exchange)
 * may take: its URLs come from the server's challenge and metadata, and a host that never answers
 * must not hold the login (and, through within(), the server's start) forever.
 */
export const AUTH_REQUEST_TIMEOUT_MS = 30_000;
/** A token this close to its expiry is refreshed before it is sent. */
const EXPIRY_MARGIN_MS = 60_000;

interface Challenge {
  /** 401: no token or a bad one; 403 insufficient_scope: the token lacks scopes. */
  kind: "unauthorized" | "insufficient_scope";
  scope?: string;
  resourceMetadataUrl?: URL;
}

export interface OAuthSessionOptions {
  server: string;
  url: string;
  oauth?: McpOAuthConfig;
  /** The folder of login files ($TOOLPLANE_HOME/mcp-oauth). */
  dir: string;
  login?: McpLoginHook;
  /** The bound on each request of an authorization (default AUTH_REQUEST_TIMEOUT_MS). */
  authRequestTimeoutMs?: number;
}

/** One server's authorization state for the life of its provider (every reconnect shares it). */
export class OAuthSession {
  readonly provider: StoreBackedProvider;
  readonly serverUrl: string;
  private readonly origin: string;
  /** Whether any request of this session was asked for authorization. */
  challenged = false;
  private inflight: Promise<void> | undefined;
  private fresh = false;
  /** Authorizations finished (well or not) while a person could be asked: see within(). */
  private rounds = 0;

  constructor(private readonly o: OAuthSessionOptions) {
    this.serverUrl = canonicalServerUrl(o.url);
    this.origin = new URL(this.serverUrl).origin;
    const client = clientIdentity(o.oauth);
    const store = new LoginStore(loginFile(o.dir, this.serverUrl, client), this.serverUrl, client, o.server);
    this.provider = new StoreBackedProvider(o.server, o.oauth ?? {}, store);
  }

  get interactive(): boolean {
    return this.o.login !== undefined;
  }

  /** The longest a login waits for the person (0 when no one can be asked). */
  get loginTimeoutMs(): number {
    return this.o.login ? (this.o.login.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS) : 0;
  }

  /**
   * `promise` within `ms`, not counting the time a login spent waiting for the person at the
   * browser (a start-up timeout is for the server, not for someone typing a password): a deadline
   * that passes during a login waits for it, then gives `ms` again.
   */
  async within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
    if (!this.interactive) return withDeadline(promise, ms, message);
    let settled = false;
    promise.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    for (;;) {
      const before = this.rounds;
      try {
        return await withDeadline(promise, ms, message);
      } catch (error) {
        if (settled) throw error;
        if (this.inflight) await this.inflight.catch(() => {});
        else if (this.rounds === before) throw error;
      }
    }
  }

  /** `toolplane mcp login`: the stored tokens are not sent or refreshed; the next challenge logs in anew. */
  startFresh(): void {
    this.fresh = true;
    this.provider.ignoreStoredTokens = true;
  }

  /** The fetch the transport uses: the token on each request, and the authorization a refusal asks for. */
  fetch(base: FetchLike): FetchLike {
    return async (input, init) => {
      // the token goes to the server's own origin only (a redirect elsewhere never carries it)
      const ours = new URL(input).origin === this.origin;
      const send = async () => {
        const headers = new Headers(init?.headers);
        const token = ours ? await this.accessToken(base) : undefined;
        if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
        return base(input, { ...init, headers });
      };
      let response = await send();
      for (let round = 0; ; round++) {
        const challenge = ours ? await challengeOf(response) : undefined;
        if (!challenge) return response;
        this.challenged = true;
        await response.body?.cancel().catch(() => {});
        const refused = this.hopeless(challenge, round);
        if (refused) throw new Error(`MCP server "${this.o.server}" ${refused}`);
        await this.authorize(challenge, base);
        response = await send();
      }
    };
  }

  /** The access token to send, refreshed first when it is about to expire (and can be refreshed). */
  private async accessToken(base: FetchLike): Promise<string | undefined> {
    let tokens = this.provider.tokens();
    const login = tokens && this.provider.store.read();
    const expiresAt =
      login?.obtainedAt !== undefined && tokens?.expires_in !== undefined
        ? login.obtainedAt + tokens.expires_in * 1000
        : undefined;
    if (tokens?.refresh_token && expiresAt !== undefined && Date.now() > expiresAt - EXPIRY_MARGIN_MS) {
      try {
        await this.authorize({ kind: "unauthorized" }, base);
      } catch {
        // the server decides about the old token: its refusal leads to a login or "needs login"
      }
      tokens = this.provider.tokens();
    }
    return tokens?.access_token;
  }

  /** Why no further authorization can help this request, or undefined. */
  private hopeless(challenge: Challenge, round: number): string | undefined {
    if (round >= MAX_AUTHORIZATIONS_PER_REQUEST)
      return `still refused the request after ${round} authorizations (${describe(challenge)}); toolplane stops here rather than loop`;
    if (challenge.kind === "insufficient_scope" && challenge.scope) {
      const granted = new Set((this.provider.tokens()?.scope ?? "").split(" ").filter(Boolean));
      const wanted = challenge.scope.split(" ").filter(Boolean);
      if (wanted.length > 0 && wanted.every((s) => granted.has(s)))
        return `refused the request for lack of scope "${challenge.scope}", which the login already grants; the server will not accept it (ask its operator)`;
    }
    return undefined;
  }

  /** One authorization at a time: requests refused together share it. */
  authorize(challenge: Challenge, base: FetchLike): Promise<void> {
    this.inflight ??= this.authorizeNow(challenge, base).finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async authorizeNow(challenge: Challenge, base: FetchLike): Promise<void> {
    const sdk = await loadAuthSdk();
    const provider = this.provider;
    const stepUp = challenge.kind === "insufficient_scope";
    const scope = stepUp ? unionScopes(provider.tokens()?.scope, challenge.scope) : challenge.scope;
    const options = {
      serverUrl: this.serverUrl,
      fetchFn: timeBound(base, this.o.authRequestTimeoutMs ?? AUTH_REQUEST_TIMEOUT_MS),
      ...(scope ? { scope } : {}),
      ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
    };
    const login = this.o.login;
    if (!login) {
      // no one can be sent to a browser: only a refresh of a stored login can answer
      const tokens = provider.tokens();
      if (stepUp || this.fresh || !tokens?.refresh_token || !provider.clientInformation())
        throw new NeedsLoginError(
          this.o.server,
          stepUp ? `it asks for more scope: ${challenge.scope}` : undefined,
        );
      const result = await sdk.auth(provider, options);
      if (result !== "AUTHORIZED") throw new NeedsLoginError(this.o.server);
      return;
    }
    const callback = await this.listen(login);
    try {
      provider.redirect = callback.url;
      provider.openBrowser = async (url) => {
        await login.open(url, this.o.server);
      };
      // a step-up or a fresh login needs the person: a refresh would only bring the same scopes back
      if (stepUp || this.fresh) provider.ignoreStoredTokens = true;
      let result = await sdk.auth(provider, options);
      if (result === "REDIRECT") {
        const code = await callback.code;
        result = await sdk.auth(provider, { ...options, authorizationCode: code });
      }
      if (result !== "AUTHORIZED") throw new Error(`MCP server "${this.o.server}": the login did not finish`);
      this.fresh = false;
    } finally {
      this.rounds++;
      callback.close();
      provider.redirect = undefined;
      provider.openBrowser = undefined;
      if (!this.fresh) provider.ignoreStoredTokens = false;
    }
  }

  /**
   * The loopback redirect: on the configured port, else on the port the stored registration names
   * (an authorization server may insist on the registered redirect URI), else a free one, in which
   * case a stored registration with another port is dropped so the client registers again.
   */
  private async listen(login: McpLoginHook): Promise<Callback> {
    const timeoutMs = login.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS;
    const at = (port: number) =>
      listenForCallback({ port, timeoutMs, server: this.o.server, state: () => this.provider.expectedState });
    const configured = this.o.oauth?.callbackPort;
    if (configured !== undefined) return at(configured);
    const registered = registeredPort(this.provider.clientInformation());
    if (registered !== undefined) {
      try {
        return await at(registered);
      } catch {
        if (this.o.oauth?.clientId === undefined)
          this.provider.store.update((stored) => {
            delete stored.registration;
          });
      }
    }
    return at(0);
  }
}

/** The 401 or 403 insufficient_scope a request got, with the challenge's parameters, or undefined. */
async function challengeOf(response: Response): Promise<Challenge | undefined> {
  if (response.status !== 401 && response.status !== 403) return undefined;
  const { extractWWWAuthenticateParams } = await loadAuthSdk();
  const params = extractWWWAuthenticateParams(response);
  if (response.status === 403 && params.error !== "insufficient_scope") return undefined;
  const challenge: Challenge = { kind: response.status === 401 ? "unauthorized" : "insufficient_scope" };
  if (params.scope) challenge.scope = params.scope;
  if (params.resourceMetadataUrl) challenge.resourceMetadataUrl = params.resourceMetadataUrl;
  return challenge;
}

/** `base` with every request (its body included) aborted after `ms`. */
function timeBound(base: FetchLike, ms: number): FetchLike {
  return (input, init) => {
    const deadline = AbortSignal.timeout(ms);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    return base(input, { ...init, signal });
  };
}

function describe(c: Challenge): string {
  const status = c.kind === "unauthorized" ? "HTTP 401" : "HTTP 403 insufficient_scope";
  return c.scope ? `${status}, scope "${c.scope}"` : status;
}

function unionScopes(had: string | undefined, wanted: string | undefined): string | undefined {
  const all = [...(had ?? "").split(" "), ...(wanted ?? "").split(" ")].filter(Boolean);
  return all.length === 0 ? undefined : [...new Set(all)].join(" ");
}

/** The loopback port a registration's redirect URI names, if it names one. */
function registeredPort(info: unknown): number | undefined {
  const uris = (info as { redirect_uris?: unknown } | undefined)?.redirect_uris;
  if (!Array.isArray(uris) || typeof uris[0] !== "string") return undefined;
  try {
    const u = new URL(uris[0]);
    return u.hostname === "127.0.0.1" && u.port !== "" ? Number(u.port) : undefined;
  } catch {
    return undefined;
  }
}

/** An HTTP server speaks OAuth unless its configured headers already carry an Authorization. */
export function oauthSessionFor(o: {
  server: string;
  config: McpServerConfig;
  loginsDir?: string;
  login?: McpLoginHook;
}): OAuthSession | undefined {
  const c = o.config;
  if (isStdio(c) || o.loginsDir === undefined) return undefined;
  if (Object.keys(c.headers ?? {}).some((h) => h.toLowerCase() === "authorization")) return undefined;
  return new OAuthSession({
    server: o.server,
    url: c.url,
    dir: o.loginsDir,
    ...(c.oauth ? { oauth: c.oauth } : {}),
    ...(o.login ? { login: o.login } : {}),
  });
}
