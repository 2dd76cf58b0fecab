/**
 * The page's only way to make DOM: elements with attributes set one by one and text as text
 * nodes. Tool descriptions, skill text, results and MCP data are untrusted, so nothing here
 * parses HTML (no innerHTML), and no attribute named on* or holding a URL is set from data.
 */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

export interface Props {
  class?: string;
  title?: string;
  /** Plain attributes (type, value, name, role, aria-*, data-*); event handler attributes are refused. */
  attrs?: Record<string, string | undefined>;
  on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

const UNSAFE_ATTRIBUTE = /^(on|href$|src$|srcdoc$|formaction$|action$|style$)/i;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props?.class) el.className = props.class;
  if (props?.title !== undefined) el.title = props.title;
  for (const [name, value] of Object.entries(props?.attrs ?? {})) {
    if (value === undefined) continue;
    if (UNSAFE_ATTRIBUTE.test(name)) throw new Error(`refusing to set attribute ${name}`);
    el.setAttribute(name, value);
  }
  for (const [event, handler] of Object.entries(props?.on ?? {}))
    el.addEventListener(event, handler as EventListener);
  append(el, children);
  return el;
}

export function append(el: Node, children: readonly Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/** Replaces an element's content. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

export function pill(text: string, kind: string = text): HTMLSpanElement {
  return h("span", { class: `pill ${kind}` }, text);
}

export function pre(text: string, cls = ""): HTMLPreElement {
  return h("pre", { class: cls }, text);
}

export function section(title: string, ...children: Child[]): HTMLElement {
  return h("section", null, h("h2", null, title), ...children);
}

export function table(
  head: readonly string[],
  rows: ReadonlyArray<readonly Child[] | HTMLTableRowElement>,
): HTMLTableElement {
  return h(
    "table",
    null,
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        head.map((c) => h("th", null, c)),
      ),
    ),
    h(
      "tbody",
      null,
      rows.map((r) =>
        r instanceof HTMLTableRowElement
          ? r
          : h(
              "tr",
              null,
              r.map((c) => h("td", null, c)),
            ),
      ),
    ),
  );
}

export function yesNo(v: boolean): HTMLSpanElement {
  return pill(v ? "yes" : "no", v ? "ok" : "fail");
}

/** A JSON value as indented text. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? "undefined";
}
