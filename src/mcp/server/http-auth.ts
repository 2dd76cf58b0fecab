import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A shorter token is refused: it could be guessed by a local process trying tokens. */
export const MIN_TOKEN_CHARS = 16;

/** 256 random bits, URL-safe: what `serve --http` prints when no token was given. */
export function generateToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Why a chosen token is not acceptable, or undefined. */
export function tokenProblem(token: string): string | undefined {
  if (token.length < MIN_TOKEN_CHARS) return `a token needs at least ${MIN_TOKEN_CHARS} characters`;
  if (/\s/.test(token)) return "a token cannot contain spaces";
  return undefined;
}

/**
 * A check of an `Authorization` header against the bearer token. Both sides are hashed first, so
 * the compare is constant-time whatever the lengths (timingSafeEqual needs equal lengths).
 */
export function bearerCheck(token: string): (authorization: string | undefined) => boolean {
  const matches = secretCheck(token);
  return (authorization) => {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "");
    return match !== null && matches(match[1] as string);
  };
}

/** A constant-time check of a candidate against a secret (a token from a URL, say). */
export function secretCheck(secret: string): (candidate: string | undefined) => boolean {
  const want = digest(secret);
  return (candidate) => candidate !== undefined && timingSafeEqual(digest(candidate), want);
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
