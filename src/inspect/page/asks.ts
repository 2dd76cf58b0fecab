import type { AskView } from "../api-types.js";
import { postJson } from "./api.js";
import { fill, h, table } from "./dom.js";

/** The waiting asks, one dialog each: nothing runs until the person approves or denies it here. */
export function showAsks(container: HTMLElement, asks: readonly AskView[]): void {
  if (asks.length === 0) {
    fill(container);
    return;
  }
  const ask = asks[0]!;
  const answer = (approve: boolean) => async () => {
    try {
      await postJson("api/ask", { id: ask.id, approve });
    } catch {
      // answered elsewhere or timed out: the next asks event redraws
    }
  };
  fill(
    container,
    h(
      "div",
      { class: "dialog", attrs: { role: "dialog", "aria-modal": "true", id: "ask-dialog" } },
      h("h2", null, `${ask.tool} asks for permission`),
      h("p", null, ask.message),
      table(
        ["subject", "decided by", "action"],
        ask.requests.map((r) => [h("span", { class: "mono" }, r.subject), r.decidedBy, r.action ?? ""]),
      ),
      h("pre", null, ask.args),
      asks.length > 1 ? h("p", { class: "muted" }, `${asks.length - 1} more waiting`) : null,
      h(
        "div",
        { class: "row" },
        h(
          "button",
          { class: "primary", attrs: { type: "button", id: "ask-approve" }, on: { click: answer(true) } },
          "Approve",
        ),
        h(
          "button",
          { class: "plain", attrs: { type: "button", id: "ask-deny" }, on: { click: answer(false) } },
          "Deny",
        ),
      ),
    ),
  );
}
