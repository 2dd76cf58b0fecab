// Prompts and resources a tools module may export beside its tools (`prompts`, `resources`):
// `toolplane serve` offers them to MCP clients with the project's skills. They never reach a
// model request: MCP prompts are picked by the user, resources read by the client.

/** Content of a prompt message, in MCP's shapes. */
export type PromptContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string; description?: string };

export interface PromptMessage {
  role: "user" | "assistant";
  content: PromptContent;
}

/** Values `completion/complete` offers for an argument: a list, or a function of what was typed so far. */
export type CompletionValues =
  | readonly string[]
  | ((
      value: string,
      context: Readonly<Record<string, string>>,
    ) => readonly string[] | Promise<readonly string[]>);

export interface PromptArgumentDeclaration {
  name: string;
  description?: string;
  required?: boolean;
  values?: CompletionValues;
}

export interface PromptDeclaration {
  name: string;
  title?: string;
  description: string;
  arguments?: readonly PromptArgumentDeclaration[];
  /** The prompt for these argument values (required ones are checked first); a string is one user message. */
  messages: (
    args: Readonly<Record<string, string>>,
  ) => string | readonly PromptMessage[] | Promise<string | readonly PromptMessage[]>;
}

/** What reading a resource gives: text, or bytes (sent base64 as a blob). */
export type ResourceBody = string | Uint8Array;

export interface ResourceDeclaration {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read: () => ResourceBody | Promise<ResourceBody>;
}

/** Resources named by an RFC 6570 URI template (`test://items/{id}`). */
export interface ResourceTemplateDeclaration {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read: (uri: string, variables: Readonly<Record<string, string>>) => ResourceBody | Promise<ResourceBody>;
  /** Values completion/complete offers for each template variable. */
  complete?: Readonly<Record<string, CompletionValues>>;
}

export type Served<T> = Readonly<T> & { readonly kind: "prompt" | "resource" | "resource-template" };

const str = (v: unknown) => typeof v === "string" && v !== "";

function need(ok: boolean, what: string, message: string): void {
  if (!ok) throw new TypeError(`${what}: ${message}`);
}

export function definePrompt(d: PromptDeclaration): Served<PromptDeclaration> {
  need(str(d?.name), "definePrompt", "give a name");
  const what = `prompt "${d.name}"`;
  need(str(d.description), what, "give a description (clients show it in their prompt list)");
  need(
    typeof d.messages === "function",
    what,
    "give messages(args), returning a string or a list of messages",
  );
  const names = new Set<string>();
  for (const a of d.arguments ?? []) {
    need(str(a?.name), what, "every argument needs a name");
    need(!names.has(a.name), what, `the argument "${a.name}" is declared twice`);
    names.add(a.name);
  }
  return Object.freeze({ ...d, kind: "prompt" as const });
}

export function defineResource(d: ResourceDeclaration): Served<ResourceDeclaration> {
  need(
    str(d?.uri) && URL.canParse(d.uri),
    "defineResource",
    `give an absolute uri (got ${JSON.stringify(d?.uri)})`,
  );
  need(str(d.name), `resource ${d.uri}`, "give a name");
  need(typeof d.read === "function", `resource ${d.uri}`, "give read()");
  return Object.freeze({ ...d, kind: "resource" as const });
}

export function defineResourceTemplate(d: ResourceTemplateDeclaration): Served<ResourceTemplateDeclaration> {
  need(
    str(d?.uriTemplate) && /\{[^}]+\}/.test(d.uriTemplate),
    "defineResourceTemplate",
    "give a uriTemplate with at least one {variable}",
  );
  need(str(d.name), `resource template ${d.uriTemplate}`, "give a name");
  need(typeof d.read === "function", `resource template ${d.uriTemplate}`, "give read(uri, variables)");
  return Object.freeze({ ...d, kind: "resource-template" as const });
}

/** What the tools modules of a project export beside their tools. */
export interface ServedEntries {
  prompts: ReadonlyArray<Served<PromptDeclaration>>;
  resources: ReadonlyArray<Served<ResourceDeclaration>>;
  templates: ReadonlyArray<Served<ResourceTemplateDeclaration>>;
}

/**
 * A module's `prompts` and `resources` exports, each item through its define function (a raw
 * declaration object is accepted, like a tool's). `resources` holds resources and templates.
 */
export function servedOf(mod: Record<string, unknown>, rel: string): ServedEntries {
  const list = (key: string): unknown[] => {
    const v = mod[key];
    if (v === undefined) return [];
    if (!Array.isArray(v)) throw new TypeError(`tools.modules: "${rel}": \`${key}\` must be an array`);
    return v;
  };
  const prompts = list("prompts").map((p) => definePrompt(p as PromptDeclaration));
  const resources: Array<Served<ResourceDeclaration>> = [];
  const templates: Array<Served<ResourceTemplateDeclaration>> = [];
  for (const r of list("resources")) {
    if (r && typeof r === "object" && "uriTemplate" in r)
      templates.push(defineResourceTemplate(r as ResourceTemplateDeclaration));
    else resources.push(defineResource(r as ResourceDeclaration));
  }
  return { prompts, resources, templates };
}
