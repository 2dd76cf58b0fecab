import type { DeferPlan } from "./plan.js";
import { TOOL_SEARCH_NAME } from "./plan.js";
import { TOOL_SEARCH_NATIVE_DESCRIPTION } from "./tool-search.js";

export type SearchVariant = "bm25" | "regex";

/** Anthropic's server-side tool search tools (beta `advanced-tool-use-2025-11-20`). */
export const ANTHROPIC_TOOL_SEARCH = {
  bm25: { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
  regex: { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" },
} as const;
export const ANTHROPIC_TOOL_SEARCH_BETA = "advanced-tool-use-2025-11-20";

/** OpenAI Responses' hosted tool search. */
export const OPENAI_RESPONSES_TOOL_SEARCH = { type: "tool_search" } as const;

/** `defer.nativeSearch`: in the native form, the provider's own search, or toolplane's run by the client. */
export type NativeSearchBy = "provider" | "toolplane";

/**
 * toolplane's tool_search as the provider's client-run search, from its JSON Schema:
 * - Anthropic: a custom tool named tool_search; its result carries a `tool_reference` block per
 *   tool found, which loads that deferred tool (adapters add them: see searchReferences);
 * - OpenAI Responses: `{type: "tool_search", execution: "client"}` with toolplane's description and
 *   parameters; the client answers each `tool_search_call` with a `tool_search_output` listing the
 *   found tools' definitions.
 */
export function clientSearchTool(provider: string, parameters: unknown): Record<string, unknown> | undefined {
  if (provider === "anthropic")
    return { name: TOOL_SEARCH_NAME, description: TOOL_SEARCH_NATIVE_DESCRIPTION, input_schema: parameters };
  if (provider === "openai-responses")
    return {
      ...OPENAI_RESPONSES_TOOL_SEARCH,
      execution: "client",
      description: TOOL_SEARCH_NATIVE_DESCRIPTION,
      parameters,
    };
  return undefined;
}

/** Providers with a native deferred-loading form; everywhere else tool_search runs on the client. */
export function hasNativeToolSearch(provider: string): boolean {
  return provider === "anthropic" || provider === "openai-responses";
}

/** The provider's own search tool, or undefined where there is none. */
export function nativeSearchTool(
  provider: string,
  variant: SearchVariant = "bm25",
): Record<string, unknown> | undefined {
  if (provider === "anthropic") return { ...ANTHROPIC_TOOL_SEARCH[variant] };
  if (provider === "openai-responses") return { ...OPENAI_RESPONSES_TOOL_SEARCH };
  return undefined;
}

export interface DeferredToolList {
  /** Wire-form tools in order. */
  tools: unknown[];
  /** Names the model sees only by name (client-side form) or that carry defer_loading (native). */
  deferred: string[];
  native: boolean;
  /** Request headers the native form needs (Anthropic beta), else empty. */
  headers: Record<string, string>;
  /** One line for the system text listing deferred tools by name (client-side form only). */
  hint: string;
}

export interface DecorateOptions {
  /** Use the provider's native form where it has one (default true). */
  native?: boolean;
  variant?: SearchVariant;
}

/**
 * Builds the provider tool list for a deferral plan. `render(name)` gives one tool's wire form
 * and is only called for tools the list needs:
 * - native (Anthropic, OpenAI Responses): every tool in plan order, deferred ones marked
 *   `defer_loading: true` and placed after the resident ones, and the provider's search tool in
 *   place of ours (the provider must see a deferred tool's definition to load it server-side);
 * - client-side (elsewhere, or native off): resident tools only (our tool_search among them); the
 *   deferred ones appear by name in the hint, so their schemas are never built.
 */
export function decorateTools(
  provider: string,
  plan: DeferPlan,
  render: (name: string) => unknown,
  opts: DecorateOptions = {},
): DeferredToolList {
  const native = (opts.native ?? true) && plan.toolSearch && hasNativeToolSearch(provider);
  if (!native) {
    return {
      tools: plan.resident.map(render),
      deferred: [...plan.deferred],
      native: false,
      headers: {},
      hint: deferredHint(plan.deferred),
    };
  }
  const tools: unknown[] = [];
  for (const name of plan.resident) {
    tools.push(name === TOOL_SEARCH_NAME ? nativeSearchTool(provider, opts.variant) : render(name));
  }
  for (const name of plan.deferred) tools.push(markDeferred(render(name)));
  return {
    tools,
    deferred: [...plan.deferred],
    native: true,
    headers: provider === "anthropic" ? { "anthropic-beta": ANTHROPIC_TOOL_SEARCH_BETA } : {},
    hint: "",
  };
}

/** A copy of a wire tool with `defer_loading: true` (the same key for Anthropic and OpenAI Responses). */
export function markDeferred(wireTool: unknown): Record<string, unknown> {
  if (wireTool === null || typeof wireTool !== "object") throw new TypeError("a wire tool must be an object");
  return { ...(wireTool as Record<string, unknown>), defer_loading: true };
}

/** Deferred tools by name only, one line, sorted, no search hints. Empty when nothing is deferred. */
export function deferredHint(names: readonly string[]): string {
  if (names.length === 0) return "";
  const sorted = [...names].sort();
  return `Deferred tools (call ${TOOL_SEARCH_NAME} to load one before use): ${sorted.join(", ")}`;
}
