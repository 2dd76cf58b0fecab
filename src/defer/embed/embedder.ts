/**
 * Sentence vectors for tool search (`search.embedder`). Off by default: the lexical ranking needs
 * no model. An embedder turns texts into unit vectors; the ranker (semantic.ts) blends their
 * cosine with the lexical score. Two kinds: a local model run in a worker thread (local.ts) and
 * any OpenAI-compatible `/embeddings` endpoint (openai.ts).
 */
export interface Embedder {
  /** Names the model (and endpoint): vectors are cached on disk under it. */
  readonly id: string;
  /** One unit vector per text, in order. Rejects with an EmbedderError that says what to do. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /** Stops the worker or aborts the requests in flight. */
  close(): Promise<void>;
}

export type EmbedderConfig =
  | "off"
  | { kind: "local" }
  | { kind: "openai"; url: string; model: string; apiKeyEnv?: string; timeoutMs?: number };

/** The embedder could not answer: not installed, unreachable, refused, or an answer it cannot read. */
export class EmbedderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EmbedderError";
  }
}

/** Scales a vector to length 1 (the endpoint's may not be); a zero vector stays zero. */
export function unit(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values);
  let sum = 0;
  for (const v of out) sum += v * v;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) dot += a[i]! * b[i]!;
  return dot;
}
