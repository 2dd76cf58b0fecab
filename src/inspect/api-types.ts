/**
 * What the inspector's JSON API answers, shared by the server (Node) and the page (browser). Types
 * only and no imports, so the page's build (DOM types, no Node) compiles it without the library.
 * The catalog part is structural: the server hands over the library's own Catalog object, which
 * fits these shapes; the page never recomputes it.
 */

export interface ProblemView {
  provider: string;
  layer: string;
  outcome: "rejected" | "incomplete" | "malformed" | "untrusted";
  reason: string;
  entry?: string;
}

export interface AskView {
  id: string;
  tool: string;
  /** The decision's one-line message (every asking request of the call, joined). */
  message: string;
  /** What each asking request was checked against, and the rule (or default) that said ask. */
  requests: Array<{ subject: string; decidedBy: string; action?: string }>;
  /** The call's arguments as JSON text. */
  args: string;
}

export interface StateView {
  cwd: string;
  projectRoot: string;
  /** The scope chain, nearest first (empty: the global layer only). */
  chain: string[];
  providers: string[];
  /** Bumped on every change the page is told about. */
  generation: number;
  /** The configuration files watched for changes. */
  configFiles: string[];
  /** Set while the last change to a configuration file could not be loaded (the previous one stays). */
  configError?: string;
  /** Asks waiting for an answer in the page. */
  asks: AskView[];
  /** Recent lines for people (a failed MCP server, an untrusted project, a reload that failed). */
  notices: string[];
}

/** The catalog exactly as the library rendered it (the `toolplane catalog --json` shape). */
export interface WireCatalog {
  provider: string;
  tools: unknown[];
  system: string;
  deferred: string[];
  budget: {
    limit: number;
    used: number;
    unit: "chars" | "tokens";
    truncated: boolean;
    chars: { limit: number; used: number };
    tokens?: { limit: number; used: number };
    cap?: number;
  };
  prefixHash: string;
  incomplete: boolean;
  attachments: Array<{ kind: string; text: string }>;
  headers?: Record<string, string>;
  report: {
    conversions: Array<{ tool: string; path: string; change: string }>;
    cut: Array<{ name: string; original: number; kept: number; by: string }>;
    omitted: string[];
    renamed: Array<{ name: string; wireName: string }>;
    deferral?: {
      form: string;
      trigger: string;
      loaded: string[];
      changes: Array<{ from: string; to: string; reason: string; names: string[] }>;
    };
  };
  problems: ProblemView[];
}

/** One piece of the catalog text and what it costs against the budget. */
export interface BudgetEntry {
  /** tool: a resident tool's name and description; skill / deferred / frame: a line of the system text; native: sent, but not counted. */
  kind: "tool" | "skill" | "deferred" | "frame" | "native";
  name: string;
  chars: number;
  /** o200k tokens. */
  tokens: number;
  /** False for what the provider keeps out of the context (native deferred tools). */
  counted: boolean;
  cut?: { original: number; kept: number; by: string };
}

export interface PrefixChange {
  from: string;
  to: string;
  /** ISO time of the render that changed it. */
  at: string;
  /** A unified diff of the stable prefix (tools, then system text), hunk by hunk. */
  hunks: Array<{ header: string; lines: string[] }>;
}

export interface CatalogView {
  catalog: WireCatalog;
  entries: BudgetEntry[];
  /** The entries' sums: they equal the budget's chars (and tokens) used. */
  totals: { chars: number; tokens: number };
  /** The last change of prefixHash this inspector saw for the provider. */
  change?: PrefixChange;
}

export interface DeferralView {
  trigger: string;
  tools: Array<{
    name: string;
    residency: "resident" | "deferred";
    loaded: boolean;
    mark: string;
    markedBy?: string;
    reason: string;
  }>;
  band: {
    mode: string;
    count: number;
    threshold: number;
    releaseAt: number;
    maxSchemaBytes: number | null;
    thresholdTokens: number | null;
    triggered: boolean;
  };
  resident: string[];
  native: boolean;
}

export type EntryState = "active" | "shadowed" | "restricted" | "disabled" | "denied" | "reserved";

export interface LayersPageView {
  chain: string[];
  layers: Array<{
    name: string;
    restrictions?: unknown;
    entries: Array<{ name: string; provider: string; state: EntryState; why?: string }>;
  }>;
  skills: Array<{
    name: string;
    description: string;
    root: string;
    rank: number;
    form: string;
    path: string;
    provider: string;
    modelVisible: boolean;
    userVisible: boolean;
    disabled: boolean;
  }>;
  shadowedSkills: Array<{
    name: string;
    path: string;
    root: string;
    rank: number;
    by: { path: string; root: string; rank: number };
  }>;
  skillProblems: Array<{ path: string; errors: string[] }>;
  /** Every provider problem of the tool and skill reads (the catalog's `problems`). */
  problems: ProblemView[];
  trust: {
    project: string;
    trusted: boolean;
    source: string;
    command: string;
    ignored: Array<{ key: string; reason: string }>;
  };
  configError?: string;
}

export interface SearchView {
  mode: "query" | "pattern";
  over: "deferred" | "all";
  results: Array<{ name: string; score: number; relevance: number; residency: string }>;
  /** How many tools were ranked. */
  searched: number;
  /** With search.embedder on, over the deferred tools: how the query was ranked, as tool_search ranks it. */
  ranking?: { kind: "lexical" | "hybrid"; reason?: string; vectors: { ready: number; total: number } };
  /** With run: what tool_search returned to the model, and what it loaded. */
  ran?: CallView;
}

export interface SelectionView {
  ok: boolean;
  tools: Array<{
    tool: string;
    ok: boolean;
    search: {
      ok: boolean;
      cases: Array<{
        task: string;
        expect: string;
        ok: boolean;
        rank: number | null;
        score: number;
      }>;
    };
  }>;
  untested: string[];
  summary: { cases: number; failed: number };
}

export interface ToolForm {
  name: string;
  /** The declaration's display title, for people (never sent to a model). */
  title?: string;
  description: string;
  /** The tool's parameters, the JSON Schema its calls are validated against. */
  parameters: unknown;
  residency: "resident" | "deferred";
}

export interface TraceEntry {
  /** A permission decision, an ask and its answer, a note, or a hook that ran (docs/hooks.md). */
  kind: "decision" | "ask" | "note" | "hook";
  message: string;
  effect?: string;
  /** The rule (or built-in check, or default) that decided. */
  decidedBy?: string;
  rule?: unknown;
  subject?: string;
  action?: string;
  /** For an ask: the answer given in the page. */
  approved?: boolean;
  /** For a hook: its event, how its run ended (ok, blocked, error, failed) and how long it took. */
  hook?: { event: string; status: string; ms: number };
}

export interface CallView {
  /** The call as its tool's display part puts it for people: `Read: read src/a.ts`. */
  summary?: string;
  result: {
    tool: string;
    isError: boolean;
    content: Array<{ type: string; text?: string; mimeType?: string; data?: string }>;
    truncated: boolean;
    nextOffset?: number;
    spillPath?: string;
    error?: { code: string; message: string };
  };
  trace: TraceEntry[];
  ms: number;
}

/** The `changed` server-sent event. */
export interface ChangeEvent {
  generation: number;
  /** What changed: "tools", "skills", "config", "load", "asks". */
  what: string[];
}
