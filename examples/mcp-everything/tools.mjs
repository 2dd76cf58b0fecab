// The tools, prompts and resources the MCP conformance suite's server scenarios call
// (@modelcontextprotocol/conformance 0.1.16), written only with toolplane's public API. `toolplane
// serve` offers them with the built-in tools and this project's skills (docs/mcp.md).
import { definePrompt, defineResource, defineResourceTemplate, defineTool } from "toolplane";

/** A 1x1 red PNG and a minimal WAV, base64. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
const WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const noArgs = { type: "object", properties: {}, additionalProperties: false };
const text = { schema: { type: "string" }, render: (v) => v };
/** Content blocks as the value (an array: no structuredContent repeats them); the render passes them on. */
const blocks = { schema: { type: "array", items: { type: "object" } }, render: (content) => ({ content }) };

/** A tool of this module: every one stays in the tool list (never deferred). */
const tool = (declaration) => defineTool({ defer: "never", ...declaration });

const elicitationTool = (name, description, requestedSchema) =>
  tool({
    name,
    description,
    parameters: noArgs,
    output: text,
    execute: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: "Please review and update the form fields",
        requestedSchema,
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  });

export const tools = [
  tool({
    name: "test_simple_text",
    description: "Returns a fixed text (conformance: tools-call-simple-text)",
    parameters: noArgs,
    output: text,
    execute: () => "This is a simple text response for testing.",
  }),
  tool({
    name: "test_image_content",
    description: "Returns a 1x1 red PNG as image content (conformance: tools-call-image)",
    parameters: noArgs,
    output: blocks,
    execute: () => [{ type: "image", mimeType: "image/png", data: PNG }],
  }),
  tool({
    name: "test_audio_content",
    description: "Returns a minimal WAV as audio content (conformance: tools-call-audio)",
    parameters: noArgs,
    output: blocks,
    // a file of an audio/* type is MCP audio content
    execute: () => [{ type: "file", mimeType: "audio/wav", data: WAV }],
  }),
  tool({
    name: "test_embedded_resource",
    description: "Returns an embedded text resource (conformance: tools-call-embedded-resource)",
    parameters: noArgs,
    output: blocks,
    execute: () => [
      {
        type: "text",
        text: "This is an embedded resource content.",
        resource: { kind: "embedded", uri: "test://embedded-resource", mimeType: "text/plain" },
      },
    ],
  }),
  tool({
    name: "test_multiple_content_types",
    description: "Returns text, an image and an embedded resource (conformance: tools-call-mixed-content)",
    parameters: noArgs,
    output: blocks,
    execute: () => [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", mimeType: "image/png", data: PNG },
      {
        type: "text",
        text: JSON.stringify({ test: "data", value: 123 }),
        resource: { kind: "embedded", uri: "test://mixed-content-resource", mimeType: "application/json" },
      },
    ],
  }),
  tool({
    name: "test_tool_with_logging",
    description: "Sends three log messages while it runs (conformance: tools-call-with-logging)",
    parameters: noArgs,
    output: text,
    execute: async (_args, ctx) => {
      ctx.logMessage({ level: "info", data: "Tool execution started" });
      await sleep(50);
      ctx.logMessage({ level: "info", data: "Tool processing data" });
      await sleep(50);
      ctx.logMessage({ level: "info", data: "Tool execution completed" });
      return "Tool with logging executed successfully";
    },
  }),
  tool({
    name: "test_error_handling",
    description: "Always fails (conformance: tools-call-error)",
    parameters: noArgs,
    output: text,
    execute: () => {
      throw new Error("This tool intentionally returns an error for testing");
    },
  }),
  tool({
    name: "test_tool_with_progress",
    description: "Reports progress 0, 50 and 100 of 100 (conformance: tools-call-with-progress)",
    parameters: noArgs,
    output: text,
    execute: async (_args, ctx) => {
      for (const progress of [0, 50, 100]) {
        ctx.progress({ progress, total: 100, message: `${progress}% done` });
        if (progress < 100) await sleep(50);
      }
      return "Tool with progress executed successfully";
    },
  }),
  tool({
    name: "test_sampling",
    description: "Asks the client's model to answer a prompt (conformance: tools-call-sampling)",
    parameters: { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] },
    output: text,
    execute: async ({ prompt }, ctx) => {
      const answer = await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: prompt } }],
        maxTokens: 100,
      });
      return `LLM response: ${answer.content.type === "text" ? answer.content.text : `[${answer.content.type}]`}`;
    },
  }),
  tool({
    name: "test_elicitation",
    description: "Asks the user for a username and an email (conformance: tools-call-elicitation)",
    parameters: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    output: text,
    execute: async ({ message }, ctx) => {
      const answer = await ctx.elicit({
        message,
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  elicitationTool(
    "test_elicitation_sep1034_defaults",
    "Asks for a form whose fields all have defaults (conformance: elicitation-sep1034-defaults)",
    {
      type: "object",
      properties: {
        name: { type: "string", description: "User name", default: "John Doe" },
        age: { type: "integer", description: "User age", default: 30 },
        score: { type: "number", description: "User score", default: 95.5 },
        status: {
          type: "string",
          description: "User status",
          enum: ["active", "inactive", "pending"],
          default: "active",
        },
        verified: { type: "boolean", description: "Verification status", default: true },
      },
    },
  ),
  elicitationTool(
    "test_elicitation_sep1330_enums",
    "Asks for a form with each kind of choice (conformance: elicitation-sep1330-enums)",
    {
      type: "object",
      properties: {
        untitledSingle: { type: "string", description: "Pick one", enum: ["option1", "option2", "option3"] },
        titledSingle: {
          type: "string",
          description: "Pick one",
          oneOf: [
            { const: "value1", title: "First Option" },
            { const: "value2", title: "Second Option" },
            { const: "value3", title: "Third Option" },
          ],
        },
        legacyEnum: {
          type: "string",
          description: "Pick one (legacy titles)",
          enum: ["opt1", "opt2", "opt3"],
          enumNames: ["Option One", "Option Two", "Option Three"],
        },
        untitledMulti: {
          type: "array",
          description: "Pick any",
          items: { type: "string", enum: ["option1", "option2", "option3"] },
        },
        titledMulti: {
          type: "array",
          description: "Pick any",
          items: {
            anyOf: [
              { const: "value1", title: "First Choice" },
              { const: "value2", title: "Second Choice" },
              { const: "value3", title: "Third Choice" },
            ],
          },
        },
      },
    },
  ),
];

export const prompts = [
  definePrompt({
    name: "test_simple_prompt",
    description: "A prompt without arguments (conformance: prompts-get-simple)",
    messages: () => "This is a simple prompt for testing.",
  }),
  definePrompt({
    name: "test_prompt_with_arguments",
    description: "A prompt with two arguments (conformance: prompts-get-with-args, completion-complete)",
    arguments: [
      {
        name: "arg1",
        description: "First test argument",
        required: true,
        values: ["paris", "park", "party"],
      },
      { name: "arg2", description: "Second test argument", required: true },
    ],
    messages: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  }),
  definePrompt({
    name: "test_prompt_with_embedded_resource",
    description: "A prompt that embeds a resource (conformance: prompts-get-embedded-resource)",
    arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
    messages: ({ resourceUri }) => [
      {
        role: "user",
        content: {
          type: "resource",
          resource: {
            uri: resourceUri,
            mimeType: "text/plain",
            text: "Embedded resource content for testing.",
          },
        },
      },
      { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
    ],
  }),
  definePrompt({
    name: "test_prompt_with_image",
    description: "A prompt with an image (conformance: prompts-get-with-image)",
    messages: () => [
      { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
      { role: "user", content: { type: "text", text: "Please analyze the image above." } },
    ],
  }),
];

export const resources = [
  defineResource({
    uri: "test://static-text",
    name: "static-text",
    description: "A fixed text (conformance: resources-read-text)",
    mimeType: "text/plain",
    read: () => "This is the content of the static text resource.",
  }),
  defineResource({
    uri: "test://static-binary",
    name: "static-binary",
    description: "A 1x1 PNG (conformance: resources-read-binary)",
    mimeType: "image/png",
    read: () => Buffer.from(PNG, "base64"),
  }),
  defineResource({
    uri: "test://watched-resource",
    name: "watched-resource",
    description: "A resource to subscribe to (conformance: resources-subscribe, resources-unsubscribe)",
    mimeType: "text/plain",
    read: () => "Watched resource content",
  }),
  defineResourceTemplate({
    uriTemplate: "test://template/{id}/data",
    name: "template-data",
    description: "Data for an id (conformance: resources-templates-read)",
    mimeType: "application/json",
    read: (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
    complete: { id: ["123", "456"] },
  }),
];
