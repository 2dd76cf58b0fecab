// The prompts and resources a tools module declares (definePrompt, defineResource,
// defineResourceTemplate), as the server's prompt and resource sources.
import type { CompletionValues, PromptMessage, ServedEntries } from "../../declare/served.js";
import { importModule } from "../../util/import-module.js";
import type { PromptSource } from "./prompts.js";
import { contentsOf, type ResourceSource } from "./resources.js";

type UriTemplateClass = typeof import("@modelcontextprotocol/sdk/shared/uriTemplate.js").UriTemplate;
let UriTemplate: UriTemplateClass | undefined;

async function valuesOf(
  values: CompletionValues | undefined,
  typed: string,
  context: Readonly<Record<string, string>>,
): Promise<readonly string[]> {
  if (values === undefined) return [];
  return typeof values === "function" ? await values(typed, context) : values;
}

export function declaredPrompts(served: ServedEntries): PromptSource[] {
  return served.prompts.map((p) => ({
    name: p.name,
    ...(p.title !== undefined ? { title: p.title } : {}),
    description: p.description,
    arguments: (p.arguments ?? []).map((a) => ({
      name: a.name,
      required: a.required === true,
      ...(a.description !== undefined ? { description: a.description } : {}),
    })),
    messages: async (args): Promise<readonly PromptMessage[]> => {
      const got = await p.messages(args);
      return typeof got === "string" ? [{ role: "user", content: { type: "text", text: got } }] : got;
    },
    complete: (argument, typed, context) =>
      valuesOf(p.arguments?.find((a) => a.name === argument)?.values, typed, context),
  }));
}

export function declaredResources(served: ServedEntries): ResourceSource {
  // built once, with the first read that needs them (each read used to parse every template again)
  let built:
    | Promise<Array<{ t: ServedEntries["templates"][number]; template: InstanceType<UriTemplateClass> }>>
    | undefined;
  const matchers = () => {
    built ??= (async () => {
      // the SDK's RFC 6570 matcher, loaded with the first read that needs it
      UriTemplate ??= (
        await importModule<typeof import("@modelcontextprotocol/sdk/shared/uriTemplate.js")>(
          "@modelcontextprotocol/sdk/shared/uriTemplate.js",
        )
      ).UriTemplate;
      const Template = UriTemplate;
      return served.templates.map((t) => ({ t, template: new Template(t.uriTemplate) }));
    })();
    return built;
  };
  return {
    list: () =>
      served.resources.map((r) => ({
        uri: r.uri,
        name: r.name,
        ...(r.title !== undefined ? { title: r.title } : {}),
        ...(r.description !== undefined ? { description: r.description } : {}),
        ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}),
      })),
    templates: () =>
      served.templates.map((t) => ({
        uriTemplate: t.uriTemplate,
        name: t.name,
        ...(t.title !== undefined ? { title: t.title } : {}),
        ...(t.description !== undefined ? { description: t.description } : {}),
        ...(t.mimeType !== undefined ? { mimeType: t.mimeType } : {}),
      })),
    read: async (uri) => {
      const direct = served.resources.find((r) => r.uri === uri);
      if (direct) return contentsOf(uri, await direct.read(), direct.mimeType);
      if (served.templates.length === 0) return undefined;
      for (const { t, template } of await matchers()) {
        const vars = template.match(uri);
        if (!vars) continue;
        const flat = Object.fromEntries(
          Object.entries(vars).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : v]),
        );
        return contentsOf(uri, await t.read(uri, flat), t.mimeType);
      }
      return undefined;
    },
    complete: async (uriTemplate, variable, typed, context) => {
      const t = served.templates.find((x) => x.uriTemplate === uriTemplate);
      return t ? valuesOf(t.complete?.[variable], typed, context) : undefined;
    },
  };
}
