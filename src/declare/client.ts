// What a running tool may ask of whoever runs it (ToolContext.progress, logMessage, elicit, sample),
// in MCP's shapes: over `toolplane serve` each goes to the MCP client as the matching request or
// notification; in process, the host's onProgress / onLog / onElicit / onSample options answer.

/** MCP's log levels (RFC 5424), least severe first. */
export const LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** One progress report: `progress` grows with each report; `total` when the end is known. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** One log message for the client (not the model): any JSON `data`, a level, an optional logger name. */
export interface LogMessage {
  level: LogLevel;
  data: unknown;
  logger?: string;
}

/**
 * One field of an elicitation form (MCP 2025-11-25): a string (optionally a format, or a single
 * choice as `enum`, `oneOf` of `{const, title}`, or the legacy `enum` + `enumNames`), a number or
 * integer, a boolean, or a multiple choice (`type: "array"` with `items.enum` or `items.anyOf`).
 * Each may carry a `default`, which a client shows preselected.
 */
export type ElicitField = { type: "string" | "number" | "integer" | "boolean" | "array" } & Record<
  string,
  unknown
>;

/** What to ask the user: a message and a flat form. */
export interface ElicitRequest {
  message: string;
  requestedSchema: {
    type: "object";
    properties: Record<string, ElicitField>;
    required?: string[];
  };
}

/** The user's answer: `accept` with the form's values, `decline` (said no) or `cancel` (dismissed). */
export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean | string[]>;
}

/** A block of a sampling message. */
export type SamplingContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string };

export interface SamplingMessage {
  role: "user" | "assistant";
  content: SamplingContent;
}

/** A request for the client's model to answer (MCP `sampling/createMessage`). */
export interface SampleRequest {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export interface SampleResult {
  role: "assistant";
  content: SamplingContent;
  /** The model that answered. */
  model: string;
  stopReason?: string;
}

/**
 * How a harness answers what a tool asks (HostOptions, and per run in RunOptions.client). An
 * absent `onElicit` / `onSample` means no one can answer: the tool's `elicit` / `sample` throws
 * ClientUnavailableError. Progress and log messages nobody listens to are dropped.
 */
export interface ClientHandlers {
  onProgress?: (update: ProgressUpdate) => void;
  onLog?: (message: LogMessage) => void;
  onElicit?: (request: ElicitRequest, signal: AbortSignal) => Promise<ElicitResult>;
  onSample?: (request: SampleRequest, signal: AbortSignal) => Promise<SampleResult>;
}

/** A tool asked for something whoever runs it cannot give (an MCP client without the capability). */
export class ClientUnavailableError extends Error {
  readonly capability: "elicitation" | "sampling";
  constructor(capability: "elicitation" | "sampling", message: string) {
    super(message);
    this.name = "ClientUnavailableError";
    this.capability = capability;
  }
}
