import type { DeferralView } from "../api-types.js";
import { getJson } from "./api.js";
import { fill, h, pill, section, table } from "./dom.js";
import type { View } from "./view.js";

/** Resident and deferred tools, why each is where it is, and the threshold band. */
export function deferralTab(): View {
  const el = h("div");
  async function refresh(): Promise<void> {
    const v = await getJson<DeferralView>("api/deferral");
    const resident = v.tools.filter((t) => t.residency === "resident").length;
    fill(
      el,
      section(
        `Deferral: ${resident} resident, ${v.tools.length - resident} deferred`,
        h("p", null, v.trigger),
        band(v),
        h(
          "p",
          { class: "muted" },
          `defer.mode ${v.band.mode}; defer.resident: ${v.resident.length > 0 ? v.resident.join(", ") : "(none)"}; native search: ${v.native ? "on" : "off"}`,
        ),
      ),
      section(
        "Tools",
        table(
          ["tool", "where", "mark", "why"],
          v.tools.map((t) => [
            h("span", { class: "mono" }, t.name),
            [pill(t.residency), t.loaded ? pill("loaded", "ok") : null],
            t.markedBy ? `${t.mark} (${t.markedBy})` : t.mark,
            t.reason,
          ]),
        ),
      ),
    );
  }
  return { el, refresh };
}

/**
 * The count of tools the trigger measures against the threshold: under the release point the
 * trigger is off, between it and the threshold it keeps its last state (hysteresis), past the
 * threshold it is on.
 */
function band(v: DeferralView): HTMLElement {
  const b = v.band;
  if (b.mode !== "threshold")
    return h("p", { class: "muted" }, `No threshold band: defer.mode is ${b.mode}.`);
  const max = Math.max(b.threshold * 1.25, b.count * 1.1, b.threshold + 2);
  const at = (n: number) => `${(100 * n) / max}%`;
  const el = h("div", {
    class: "band",
    title: `${b.count} tools counted; threshold ${b.threshold}; stays on down to ${b.releaseAt}`,
  });
  const zone = h("div", { class: "zone" });
  zone.style.left = at(b.releaseAt);
  zone.style.width = `${(100 * (b.threshold - b.releaseAt)) / max}%`;
  const over = h("div", { class: "over" });
  over.style.left = at(b.threshold);
  const release = h("div", { class: "tick" }, h("span", null, `release ${b.releaseAt}`));
  release.style.left = at(b.releaseAt);
  const threshold = h("div", { class: "tick" }, h("span", null, `threshold ${b.threshold}`));
  threshold.style.left = at(b.threshold);
  const now = h("div", { class: "now", title: `${b.count} tools` });
  now.style.left = `calc(${at(b.count)} - 3px)`;
  el.append(zone, over, release, threshold, now);
  return h(
    "div",
    null,
    h(
      "p",
      null,
      `${b.count} tools counted, trigger `,
      pill(b.triggered ? "on" : "off", b.triggered ? "deferred" : "resident"),
    ),
    el,
    b.maxSchemaBytes !== null || b.thresholdTokens !== null
      ? h(
          "p",
          { class: "muted" },
          `also bounded by ${b.maxSchemaBytes !== null ? `${b.maxSchemaBytes} schema bytes` : ""}${b.maxSchemaBytes !== null && b.thresholdTokens !== null ? " and " : ""}${b.thresholdTokens !== null ? `${b.thresholdTokens} tokens` : ""} (see the trigger line)`,
        )
      : null,
  );
}
