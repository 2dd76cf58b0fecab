// The SDK's OAuthClientProvider for one MCP server, backed by the login store. The SDK's `auth()`
// does the protocol (discovery with the 2025-03-26 fallbacks, client ID metadata documents,
// dynamic registration, PKCE S256, the token endpoint's auth methods, refresh, issuer binding);
// this class only answers its questions: which client, which tokens, where to redirect.
import { randomBytes } from "node:crypto";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpOAuthConfig } from "../../config.js";
import { MCP_IMPLEMENTATION } from "../../config.js";
import { NeedsLoginError } from "./errors.js";
import type { LoginStore } from "./store.js";

/** How the client authenticates at the token endpoint: none (PKCE alone) where the server allows it. */
const PREFERRED_AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post"] as const;

export class StoreBackedProvider implements OAuthClientProvider {
  /** The loopback redirect while a login listens for it; unset, no one can be sent to a browser. */
  redirect: string | undefined;
  /** Opens the authorization URL for the person (set while a login runs). */
  openBrowser: ((url: URL) => Promise<void>) | undefined;
  /** While set, stored tokens are not offered: a step-up or a fresh login must not just refresh. */
  ignoreStoredTokens = false;
  private verifier: string | undefined;
  /** The stored tokens last handed to the SDK: the ones a refusal is about. */
  private offered: OAuthTokens | undefined;
  private stateValue: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;

  constructor(
    private readonly server: string,
    private readonly config: McpOAuthConfig,
    readonly store: LoginStore,
  ) {}

  // auth() reads it to tell an interactive flow from client credentials: always one here. Nothing is
  // registered or sent to a browser without `redirect`: clientMetadata and redirectToAuthorization refuse.
  get redirectUrl(): string {
    return this.redirect ?? "http://127.0.0.1/callback";
  }

  get clientMetadataUrl(): string | undefined {
    return this.config.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const metadata: OAuthClientMetadata = {
      client_name: MCP_IMPLEMENTATION.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    };
    const method = this.authMethod();
    if (method) metadata.token_endpoint_auth_method = method;
    if (this.config.scopes && this.config.scopes.length > 0) metadata.scope = this.config.scopes.join(" ");
    return metadata;
  }

  state(): string {
    this.stateValue = randomBytes(32).toString("base64url");
    return this.stateValue;
  }

  /** The state of the authorization request in flight, for the callback to check. */
  get expectedState(): string | undefined {
    return this.stateValue;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { clientId, clientSecret } = this.config;
    if (clientId !== undefined)
      return clientSecret === undefined
        ? { client_id: clientId }
        : { client_id: clientId, client_secret: clientSecret };
    return this.store.read()?.registration;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    // a configured client stays in the configuration: its secret is not copied to the login file
    if (this.config.clientId !== undefined) return;
    this.store.update((login) => {
      login.registration = info;
    });
  }

  tokens(): OAuthTokens | undefined {
    if (this.ignoreStoredTokens) return undefined;
    this.offered = this.store.read()?.tokens;
    return this.offered;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.store.update((login) => {
      login.tokens = tokens;
      login.obtainedAt = Date.now();
    });
    this.ignoreStoredTokens = false;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (!this.redirect || !this.openBrowser) throw new NeedsLoginError(this.server);
    checkAuthorizationUrl(url, this.server);
    await this.openBrowser(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error(`MCP server "${this.server}": no login is in progress`);
    return this.verifier;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "verifier") this.verifier = undefined;
    if (scope === "discovery" || scope === "all") this.discovery = undefined;
    if (scope === "all" || scope === "client" || scope === "tokens")
      this.store.update((login) => {
        if (scope !== "tokens") delete login.registration;
        // only the tokens that were refused: another toolplane process may have stored newer ones
        if (login.tokens?.refresh_token !== this.offered?.refresh_token) return;
        delete login.tokens;
        delete login.obtainedAt;
      });
    // the SDK starts over after this (a new registration, a new authorization): only a person can
    if (scope !== "verifier" && scope !== "discovery" && !this.redirect)
      throw new NeedsLoginError(this.server, "the authorization server no longer accepts the stored login");
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  /** The registration's token endpoint auth method, from what the authorization server supports. */
  private authMethod(): OAuthClientMetadata["token_endpoint_auth_method"] | undefined {
    const supported = this.discovery?.authorizationServerMetadata?.token_endpoint_auth_methods_supported;
    if (!supported) return undefined;
    return PREFERRED_AUTH_METHODS.find((m) => supported.includes(m));
  }
}

/**
 * The authorization URL comes from the server's metadata: only a web page may be opened (https, or
 * http on the loopback), never a file, a custom scheme or anything a browser opener would run.
 */
export function checkAuthorizationUrl(url: URL, server: string): void {
  const loopback = url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]";
  if (url.protocol === "https:" || (url.protocol === "http:" && loopback)) return;
  throw new Error(
    `MCP server "${server}": its authorization endpoint ${url.protocol}//${url.host} is not an https URL; toolplane does not open it`,
  );
}
