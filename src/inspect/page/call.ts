import type { CallView, ToolForm } from "../api-types.js";
import { getJson, postJson } from "./api.js";
import { fill, h, section } from "./dom.js";
import { collectArgs, type Field, type FieldValue, fieldsOf } from "./fields.js";
import { callResult } from "./result.js";
import type { View } from "./view.js";

/** A form made from a tool's schema; the call runs through the host, asks answered in the page. */
export function callTab(): View {
  const el = h("div");
  const picker = h("select", { attrs: { id: "call-tool", "aria-label": "tool" } });
  const about = h("p", { class: "muted" });
  const form = h("form", { class: "call", attrs: { id: "call-form" } });
  const output = h("div", { attrs: { id: "call-output" } });
  let tools: ToolForm[] = [];
  let shown: string | undefined;
  let read: () => Map<string, FieldValue> = () => new Map();
  let fields: Field[] = [];

  picker.addEventListener("change", () => show(picker.value));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void run();
  });
  fill(el, section("Call a tool", h("div", { class: "row" }, picker), about, form), output);

  function show(name: string): void {
    const tool = tools.find((t) => t.name === name);
    shown = tool?.name;
    if (!tool) {
      fill(form);
      return;
    }
    fill(
      about,
      tool.residency === "deferred" ? "(deferred: the call loads it first, as tool_search would) " : "",
      tool.description,
    );
    fields = fieldsOf(tool.parameters);
    const inputs = new Map<string, () => FieldValue>();
    const rows = fields.map((f) => {
      const id = `arg-${f.name}`;
      let input: HTMLElement;
      if (f.kind === "boolean") {
        const select = h(
          "select",
          { attrs: { id, name: f.name } },
          h("option", { attrs: { value: "" } }, "(unset)"),
          h("option", { attrs: { value: "true" } }, "true"),
          h("option", { attrs: { value: "false" } }, "false"),
        );
        inputs.set(f.name, () => ({ flag: select.value === "" ? "unset" : select.value === "true" }));
        input = select;
      } else if (f.kind === "enum") {
        const select = h(
          "select",
          { attrs: { id, name: f.name } },
          h("option", { attrs: { value: "" } }, "(unset)"),
          (f.choices ?? []).map((c) => h("option", { attrs: { value: c } }, c)),
        );
        inputs.set(f.name, () => ({ text: select.value }));
        input = select;
      } else if (f.kind === "json") {
        const area = h("textarea", { attrs: { id, name: f.name, placeholder: f.placeholder ?? "JSON" } });
        inputs.set(f.name, () => ({ text: area.value.trim() }));
        input = area;
      } else {
        const box = h("input", {
          attrs: {
            id,
            name: f.name,
            type: f.kind === "string" ? "text" : "number",
            placeholder: f.placeholder,
            step: f.kind === "number" ? "any" : undefined,
          },
        });
        inputs.set(f.name, () => ({ text: box.value }));
        input = box;
      }
      return h(
        "div",
        null,
        h(
          "label",
          { attrs: { for: id } },
          f.name,
          f.required ? " *" : "",
          " ",
          h("span", { class: "desc" }, `${f.kind}${f.description ? ` · ${f.description}` : ""}`),
        ),
        input,
      );
    });
    read = () => new Map([...inputs].map(([k, get]) => [k, get()]));
    fill(
      form,
      rows,
      fields.length === 0 ? h("p", { class: "muted" }, "This tool takes no arguments.") : null,
      h("button", { class: "primary", attrs: { type: "submit", id: "call-run" } }, "Run through the host"),
    );
  }

  async function run(): Promise<void> {
    const name = shown;
    if (!name) return;
    const collected = collectArgs(fields, read());
    if ("error" in collected) {
      fill(output, section("Call", h("p", { class: "error" }, collected.error)));
      return;
    }
    fill(output, section("Call", h("p", { class: "muted" }, `running ${name}…`)));
    try {
      const view = await postJson<CallView>("api/call", { tool: name, args: collected.args });
      fill(
        output,
        section(`Call: ${name}`, h("pre", null, JSON.stringify(collected.args)), callResult(view)),
      );
    } catch (error) {
      fill(output, section("Call", h("p", { class: "error" }, (error as Error).message)));
    }
  }

  async function refresh(): Promise<void> {
    tools = await getJson<ToolForm[]>("api/tools");
    const keep = shown;
    fill(
      picker,
      tools.map((t) =>
        h(
          "option",
          { attrs: { value: t.name } },
          `${t.title && t.title !== t.name ? `${t.title} · ${t.name}` : t.name}${t.residency === "deferred" ? " (deferred)" : ""}`,
        ),
      ),
    );
    // a refresh after a change keeps the form as typed when its tool is still there
    if (keep && tools.some((t) => t.name === keep)) {
      picker.value = keep;
      const same =
        JSON.stringify(fieldsOf(tools.find((t) => t.name === keep)!.parameters)) === JSON.stringify(fields);
      if (!same) show(keep);
    } else if (tools[0]) {
      picker.value = tools[0].name;
      show(tools[0].name);
    }
  }
  return { el, refresh };
}
