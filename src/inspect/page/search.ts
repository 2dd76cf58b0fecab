import type { SearchView, SelectionView } from "../api-types.js";
import { getJson, postJson } from "./api.js";
import { fill, h, pill, section, table } from "./dom.js";
import { callResult } from "./result.js";
import type { View } from "./view.js";

/** Ranks tools as tool_search does (or runs it), and every tool's selection cases. */
export function searchTab(): View {
  const el = h("div");
  const query = h("input", {
    attrs: {
      type: "text",
      id: "search-query",
      placeholder: "what the tool should do, e.g. find files by name",
    },
  });
  const mode = h(
    "select",
    { attrs: { id: "search-mode", "aria-label": "mode" } },
    h("option", { attrs: { value: "query" } }, "words"),
    h("option", { attrs: { value: "pattern" } }, "regular expression"),
  );
  const over = h(
    "select",
    { attrs: { id: "search-over", "aria-label": "over" } },
    h("option", { attrs: { value: "deferred" } }, "deferred tools (what tool_search ranks)"),
    h("option", { attrs: { value: "all" } }, "every visible tool"),
  );
  const results = h("div", { attrs: { id: "search-results" } });
  const cases = h("div", { attrs: { id: "selection" } });
  const go = (run: boolean) => () => void search(run);
  const form = h(
    "form",
    {
      on: {
        submit: (e) => {
          e.preventDefault();
          void search(false);
        },
      },
    },
    h("div", { class: "row" }, query),
    h(
      "div",
      { class: "row" },
      mode,
      over,
      h("button", { class: "primary", attrs: { type: "submit", id: "search-rank" } }, "Rank"),
      h(
        "button",
        { class: "plain", attrs: { type: "button", id: "search-run" }, on: { click: go(true) } },
        "Run tool_search as the model would (loads the matches)",
      ),
    ),
  );
  fill(el, section("Tool search", form, results), cases);

  async function search(run: boolean): Promise<void> {
    const text = query.value.trim();
    if (text === "") return;
    const body: Record<string, unknown> = { [mode.value]: text, over: over.value, limit: 10, run };
    try {
      const v = await postJson<SearchView>("api/search", body);
      fill(
        results,
        h(
          "p",
          { class: "muted" },
          `${v.searched} ${v.searched === 1 ? "tool" : "tools"} ranked (${v.over === "all" ? "every visible tool" : "deferred tools"}); score is the 0-1 fit, relevance the BM25F rank key`,
        ),
        v.results.length === 0
          ? h("p", null, "No tool matches.")
          : table(
              ["#", "tool", "score", "relevance", "where"],
              v.results.map((r, i) => [
                i + 1,
                h("span", { class: "mono" }, r.name),
                r.score.toFixed(4),
                r.relevance.toFixed(4),
                pill(r.residency),
              ]),
            ),
        v.ran ? [h("h3", null, "tool_search, run through the host"), callResult(v.ran)] : null,
      );
    } catch (error) {
      fill(results, h("p", { class: "error" }, (error as Error).message));
    }
  }

  async function refresh(): Promise<void> {
    const v = await getJson<SelectionView>("api/selection");
    fill(
      cases,
      section(
        `Selection cases: ${v.summary.cases - v.summary.failed} of ${v.summary.cases} pass`,
        v.tools.length === 0 ? h("p", { class: "muted" }, "No visible tool declares selection cases.") : null,
        v.tools.map((t) => [
          h("h3", null, pill(t.ok ? "pass" : "fail", t.ok ? "ok" : "fail"), " ", t.tool),
          table(
            ["", "expect", "task", "rank", "score"],
            t.search.cases.map((c) => [
              pill(c.ok ? "pass" : "fail", c.ok ? "ok" : "fail"),
              c.expect,
              c.task,
              c.rank ?? "not found",
              c.score.toFixed(2),
            ]),
          ),
        ]),
        v.untested.length > 0
          ? h("p", { class: "muted" }, `No selection cases: ${v.untested.join(", ")}`)
          : null,
      ),
    );
  }
  return { el, refresh };
}
