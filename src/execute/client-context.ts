// The four things a tool may ask of whoever runs it (ToolContext.progress, logMessage, elicit,
// sample), wired to the handlers the host was given and those of the run (a `toolplane serve`
// request brings its own: its progressToken, its client). The answer of a form is checked here,
// so a tool never reads a value its own form did not allow, whoever answered.
import type { Ajv } from "ajv";
import {
  type ClientHandlers,
  ClientUnavailableError,
  type ElicitRequest,
  type ElicitResult,
  LOG_LEVELS,
  type SampleRequest,
  type SampleResult,
} from "../declare/client.js";
import type { ToolContext } from "../declare/types.js";
import { newAjv } from "../util/ajv.js";

type ClientContext = Required<Pick<ToolContext, "progress" | "logMessage" | "elicit" | "sample">>;

/** The run's handlers win over the host's, one by one. */
export function clientContext(
  host: ClientHandlers,
  run: ClientHandlers | undefined,
  tool: string,
  signal: AbortSignal,
): ClientContext {
  const pick = <K extends keyof ClientHandlers>(key: K): ClientHandlers[K] => run?.[key] ?? host[key];
  const onProgress = pick("onProgress");
  const onLog = pick("onLog");
  const onElicit = pick("onElicit");
  const onSample = pick("onSample");
  let last = Number.NEGATIVE_INFINITY;
  return {
    progress: (update) => {
      if (!onProgress || !Number.isFinite(update.progress)) return;
      // MCP: progress must increase with each notification; a report that goes back is dropped
      if (update.progress <= last) return;
      last = update.progress;
      try {
        onProgress(update);
      } catch {
        // a listener's fault is not the tool's: the call goes on
      }
    },
    logMessage: (message) => {
      if (!onLog) return;
      if (!(LOG_LEVELS as readonly string[]).includes(message.level))
        throw new TypeError(
          `logMessage: unknown level "${message.level}"; use one of ${LOG_LEVELS.join(", ")}`,
        );
      try {
        onLog(message);
      } catch {
        // as above
      }
    },
    elicit: async (request) => {
      checkForm(request);
      if (!onElicit)
        throw new ClientUnavailableError(
          "elicitation",
          `${tool} asked the user a question, but nobody can be asked here (the MCP client did not declare the elicitation capability, or the harness gave no onElicit)`,
        );
      signal.throwIfAborted();
      return checkAnswer(request, await onElicit(request, signal));
    },
    sample: async (request: SampleRequest): Promise<SampleResult> => {
      if (!onSample)
        throw new ClientUnavailableError(
          "sampling",
          `${tool} asked the client's model, but there is none here (the MCP client did not declare the sampling capability, or the harness gave no onSample)`,
        );
      signal.throwIfAborted();
      return onSample(request, signal);
    },
  };
}

const PRIMITIVE = new Set(["string", "number", "integer", "boolean", "array"]);

/** MCP forms are flat: each property a primitive (or a multiple choice of strings). */
function checkForm(request: ElicitRequest): void {
  const schema = request?.requestedSchema;
  if (typeof request?.message !== "string")
    throw new TypeError("elicit: give a message (the question the user reads)");
  if (schema?.type !== "object" || typeof schema.properties !== "object" || schema.properties === null)
    throw new TypeError('elicit: requestedSchema must be {type: "object", properties: {...}}');
  for (const [name, field] of Object.entries(schema.properties)) {
    if (!field || !PRIMITIVE.has(field.type as string))
      throw new TypeError(
        `elicit: field "${name}" must have type string, number, integer, boolean or array (a multiple choice); MCP forms hold no nested objects`,
      );
  }
}

let ajv: Ajv | undefined;

/** An accepted answer must fit the form; anything else is dropped (decline/cancel carry no content). */
function checkAnswer(request: ElicitRequest, result: ElicitResult): ElicitResult {
  const action = result?.action;
  if (action !== "accept" && action !== "decline" && action !== "cancel")
    throw new Error(`the answer to the question has no valid action (got ${JSON.stringify(action)})`);
  if (action !== "accept") return { action };
  const content = result.content ?? {};
  // enumNames is not JSON Schema: strict off; defaults are the client's to show, never filled in here
  ajv ??= newAjv({ strict: false, allErrors: true });
  const schema = request.requestedSchema;
  const validate = ajv.compile(schema);
  try {
    if (!validate(content)) {
      const why = (validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || "(form)"} ${e.message}`)
        .join("; ");
      throw new Error(`the user's answer does not fit the form: ${why}`);
    }
  } finally {
    // compiled schemas are cached by object: a long-running server would keep every form
    ajv.removeSchema(schema);
  }
  return { action, content };
}
