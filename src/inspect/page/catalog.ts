import type { BudgetEntry, CatalogView, PrefixChange } from "../api-types.js";
import { getJson } from "./api.js";
import { fill, h, jsonText, pill, pre, section, table } from "./dom.js";
import type { View } from "./view.js";

/** The catalog per provider: budget bar, prefixHash with its last change, and the wire pieces. */
export function catalogTab(providers: readonly string[]): View {
  const el = h("div");
  const body = h("div");
  let provider = providers[0] ?? "anthropic";
  const buttons = providers.map((p) =>
    h(
      "button",
      {
        attrs: { role: "tab", "data-provider": p, "aria-selected": String(p === provider) },
        on: {
          click: () => {
            provider = p;
            for (const b of buttons) b.setAttribute("aria-selected", String(b.dataset.provider === p));
            void refresh();
          },
        },
      },
      p,
    ),
  );
  fill(el, h("div", { class: "subtabs", attrs: { role: "tablist" } }, buttons), body);

  async function refresh(): Promise<void> {
    const asked = provider;
    const view = await getJson<CatalogView>(`api/catalog?provider=${encodeURIComponent(asked)}`);
    if (asked !== provider) return;
    fill(body, ...render(view));
  }
  return { el, refresh };
}

function render(view: CatalogView): HTMLElement[] {
  const c = view.catalog;
  const out: HTMLElement[] = [];
  if (c.incomplete || c.problems.length > 0)
    out.push(
      section(
        "Problems",
        c.incomplete
          ? h("p", { class: "error" }, "This catalog is incomplete: a provider of entries failed.")
          : null,
        table(
          ["provider", "layer", "outcome", "reason"],
          c.problems.map((p) => [
            p.provider,
            p.layer,
            pill(p.outcome, "fail"),
            p.entry ? `${p.entry}: ${p.reason}` : p.reason,
          ]),
        ),
      ),
    );
  out.push(prefixSection(c.prefixHash, view.change));
  out.push(budgetSection(view));
  out.push(
    section(
      `Tools (${c.tools.length}, ${c.provider} wire form)`,
      c.tools.map((t, i) => {
        const name = view.entries[i]?.name ?? String(i);
        return h(
          "details",
          { attrs: { "data-tool": name } },
          h("summary", { class: "mono" }, name),
          pre(jsonText(t)),
        );
      }),
    ),
  );
  out.push(
    section(
      "System text",
      c.system === ""
        ? h(
            "p",
            { class: "muted" },
            c.attachments.length > 0
              ? "(empty: the listing is in the attachments)"
              : "(empty: no skills, nothing deferred)",
          )
        : pre(c.system, "system"),
      c.deferred.length > 0
        ? h(
            "p",
            null,
            `Deferred (${c.deferred.length}): `,
            h("span", { class: "mono" }, c.deferred.join(", ")),
          )
        : null,
      c.attachments.length > 0
        ? [
            h("h3", null, "Attachments (volatile, outside the prefix)"),
            c.attachments.map((a) => [h("p", { class: "muted" }, a.kind), pre(a.text)]),
          ]
        : null,
      c.headers ? [h("h3", null, "Request headers"), pre(jsonText(c.headers))] : null,
    ),
  );
  out.push(reportSection(view));
  return out;
}

function prefixSection(hash: string, change: PrefixChange | undefined): HTMLElement {
  const parts: HTMLElement[] = [
    h("p", null, "prefixHash ", h("span", { class: "hash", attrs: { id: "prefix-hash" } }, hash)),
  ];
  if (!change)
    parts.push(h("p", { class: "muted" }, "Unchanged since this page's first render of this provider."));
  else {
    parts.push(
      h(
        "p",
        null,
        pill("changed", "deferred"),
        ` at ${new Date(change.at).toLocaleTimeString()} from `,
        h("span", { class: "hash" }, change.from.slice(0, 16)),
        "…: the provider's prompt cache breaks here. What changed in the prefix:",
      ),
    );
    const diff = h("pre", { class: "diff" });
    for (const hunk of change.hunks) {
      diff.appendChild(h("span", { class: "hunk" }, hunk.header));
      for (const line of hunk.lines)
        diff.appendChild(
          h("span", { class: line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "" }, `${line}\n`),
        );
    }
    parts.push(diff);
  }
  return section("Prompt-cache prefix", parts);
}

function budgetSection(view: CatalogView): HTMLElement {
  const b = view.catalog.budget;
  const counted = view.entries.filter((e) => e.counted);
  const tokenLimit = b.tokens?.limit;
  const rows = view.entries.map((e) => {
    const tr = h(
      "tr",
      { class: e.cut ? "cut" : "" },
      h("td", null, pill(e.kind, e.kind === "native" ? "" : e.kind)),
      h("td", { class: "mono" }, e.name),
      h("td", { class: "num" }, e.chars),
      h("td", { class: "num" }, e.tokens),
      h(
        "td",
        null,
        e.cut
          ? [pill("cut", "cut"), ` ${e.cut.original} → ${e.cut.kept} chars (by ${e.cut.by})`]
          : e.counted
            ? ""
            : "not counted (the provider loads it)",
      ),
    );
    return tr;
  });
  return section(
    `Budget: ${b.used} of ${b.limit} ${b.unit}${b.truncated ? " (cut)" : ""}`,
    h("div", null, `characters: ${b.chars.used} of ${b.chars.limit}`),
    bar(counted, (e) => e.chars, b.chars.limit, "chars"),
    h(
      "div",
      null,
      `o200k tokens: ${view.totals.tokens}${tokenLimit !== undefined ? ` of ${tokenLimit}` : " (no token limit set: catalog.budget.tokens)"}`,
    ),
    bar(counted, (e) => e.tokens, tokenLimit ?? Math.max(view.totals.tokens, 1), "tokens"),
    h(
      "div",
      { class: "legend" },
      ["tool", "skill", "deferred", "frame", "native"].map((k) =>
        h("span", null, h("i", { class: `seg ${k}` }), k),
      ),
      h("span", null, h("i", { class: "seg tool cut" }), "cut"),
      b.cap !== undefined ? h("span", null, `common description cap: ${b.cap} chars`) : null,
    ),
    table(["kind", "entry", "chars", "tokens", ""], rows),
  );
}

function bar(
  entries: readonly BudgetEntry[],
  size: (e: BudgetEntry) => number,
  limit: number,
  unit: string,
): HTMLElement {
  const total = Math.max(
    limit,
    entries.reduce((n, e) => n + size(e), 0),
    1,
  );
  const el = h("div", { class: "bar", attrs: { "data-unit": unit } });
  for (const e of entries) {
    const seg = h("div", {
      class: `seg ${e.kind}${e.cut ? " cut" : ""}`,
      title: `${e.name}: ${e.chars} chars, ${e.tokens} tokens${e.cut ? ` (cut from ${e.cut.original} chars)` : ""}`,
    });
    // CSSOM, not a style attribute: the policy allows no inline style
    seg.style.width = `${(100 * size(e)) / total}%`;
    el.appendChild(seg);
  }
  return el;
}

function reportSection(view: CatalogView): HTMLElement {
  const r = view.catalog.report;
  const d = r.deferral;
  return section(
    "Render report",
    d
      ? [
          h("p", null, "Deferral: ", pill(d.form), ` ${d.trigger}`),
          d.loaded.length > 0 ? h("p", null, `Loaded by tool_search: ${d.loaded.join(", ")}`) : null,
          d.changes.length > 0
            ? table(
                ["move", "tools", "why"],
                d.changes.map((m) => [`${m.from} → ${m.to}`, m.names.join(", "), m.reason]),
              )
            : null,
        ]
      : null,
    r.omitted.length > 0
      ? h("p", { class: "error" }, `Left out (not even the name fit): ${r.omitted.join(", ")}`)
      : null,
    r.renamed.length > 0
      ? table(
          ["name", "sent as"],
          r.renamed.map((x) => [x.name, x.wireName]),
        )
      : null,
    r.conversions.length > 0
      ? [
          h("h3", null, `Schema conversions (${r.conversions.length})`),
          table(
            ["tool", "path", "change"],
            r.conversions.map((x) => [x.tool, x.path, x.change]),
          ),
        ]
      : h("p", { class: "muted" }, "No schema conversions for this provider."),
  );
}
