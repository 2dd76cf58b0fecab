import type { CallView } from "../api-types.js";
import { h, pill, table } from "./dom.js";
import { cutSegments } from "./markers.js";

/** A call's permission trace and its result as the model sees it, cut markers highlighted. */
export function callResult(view: CallView): HTMLElement {
  const r = view.result;
  const facts = h(
    "p",
    { class: "row" },
    r.isError ? pill(`error: ${r.error?.code ?? "tool error"}`, "fail") : pill("ok", "ok"),
    r.truncated ? pill("truncated", "cut") : null,
    r.nextOffset !== undefined
      ? h("span", null, "nextOffset ", h("b", { attrs: { id: "next-offset" } }, String(r.nextOffset)))
      : null,
    r.spillPath !== undefined
      ? h("span", null, "spilled to ", h("code", { attrs: { id: "spill-path" } }, r.spillPath))
      : null,
    h("span", { class: "muted" }, `${view.ms} ms`),
  );
  const content = r.content.map((block) => {
    if (block.type === "text") {
      const out = h("pre", { class: "result" });
      for (const seg of cutSegments(block.text ?? ""))
        out.appendChild(seg.cut ? h("mark", { class: "cut" }, seg.text) : document.createTextNode(seg.text));
      return out;
    }
    return h(
      "p",
      { class: "muted" },
      `[${block.type}: ${block.mimeType ?? "?"}, ${(block.data ?? "").length} base64 characters]`,
    );
  });
  return h(
    "div",
    { class: "call-result" },
    view.summary ? h("p", { attrs: { id: "call-summary" } }, h("b", null, view.summary)) : null,
    h("h3", null, "Permission and hook trace"),
    view.trace.length === 0
      ? h(
          "p",
          { class: "muted" },
          "No permission was checked and no hook ran (the call stopped before, or the tool declares none).",
        )
      : table(
          ["", "effect", "decided by", "subject", "message"],
          view.trace.map((t) => [
            t.kind,
            t.hook && t.hook.status !== "ok"
              ? [pill(t.hook.status, "fail"), t.effect ? pill(t.effect) : null]
              : t.effect
                ? [
                    pill(t.effect),
                    t.approved !== undefined
                      ? pill(t.approved ? "approved" : "denied", t.approved ? "ok" : "fail")
                      : null,
                  ]
                : "",
            t.decidedBy ?? "",
            t.subject ? h("span", { class: "mono" }, t.subject) : "",
            t.message,
          ]),
        ),
    h("h3", null, "Result as the model sees it"),
    facts,
    content,
  );
}
