import type { AskView, ChangeEvent, StateView } from "../api-types.js";
import { getJson } from "./api.js";
import { showAsks } from "./asks.js";
import { callTab } from "./call.js";
import { catalogTab } from "./catalog.js";
import { deferralTab } from "./deferral.js";
import { fill, h } from "./dom.js";
import { layersTab } from "./layers.js";
import { searchTab } from "./search.js";
import type { View } from "./view.js";

const TABS = [
  ["catalog", "Catalog"],
  ["deferral", "Deferral"],
  ["layers", "Layers & skills"],
  ["search", "Search"],
  ["call", "Call"],
] as const;
type TabName = (typeof TABS)[number][0];

const $ = (id: string) => document.getElementById(id)!;

async function start(): Promise<void> {
  const state = await getJson<StateView>("api/state");
  showState(state);
  const views: Record<TabName, View> = {
    catalog: catalogTab(state.providers),
    deferral: deferralTab(),
    layers: layersTab(),
    search: searchTab(),
    call: callTab(),
  };
  // a tab that is not shown is redrawn when it is shown next
  const stale = new Set<TabName>(TABS.map(([name]) => name));
  const fromHash = location.hash.slice(1);
  let current: TabName = TABS.some(([n]) => n === fromHash) ? (fromHash as TabName) : "catalog";
  const main = $("view");
  fill(
    main,
    TABS.map(([name]) => views[name].el),
  );
  const buttons = TABS.map(([name, label]) =>
    h("button", { attrs: { role: "tab", "data-tab": name }, on: { click: () => select(name) } }, label),
  );
  fill($("tabs"), buttons);

  function select(name: TabName): void {
    current = name;
    history.replaceState(null, "", `#${name}`);
    for (const b of buttons) b.setAttribute("aria-selected", String(b.dataset.tab === name));
    for (const [n] of TABS) views[n].el.hidden = n !== name;
    if (stale.has(name)) void redraw(name);
  }

  async function redraw(name: TabName): Promise<void> {
    stale.delete(name);
    try {
      await views[name].refresh();
    } catch (error) {
      fill(views[name].el, h("p", { class: "error" }, `could not load: ${(error as Error).message}`));
    }
  }

  select(current);
  listen(async (event) => {
    for (const [n] of TABS) stale.add(n);
    await redraw(current);
    const latest = await getJson<StateView>("api/state");
    showState(latest);
    document.body.dataset.generation = String(event.generation);
  });
}

function showState(state: StateView): void {
  const chain = state.chain.length > 0 ? ` · scope ${state.chain.join(" > ")}` : "";
  fill($("where"), `${state.cwd}${chain}`);
  $("where").title = `project ${state.projectRoot}; watching ${state.configFiles.join(", ")}`;
  fill(
    $("notices"),
    state.configError ? h("p", { class: "error" }, `Configuration not reloaded: ${state.configError}`) : null,
    state.notices.slice(-3).map((n) => h("p", null, n)),
  );
  showAsks($("asks"), state.asks);
}

/** Server-sent events: a change redraws the shown tab, with no reload; asks open a dialog. */
function listen(onChange: (event: ChangeEvent) => Promise<void>): void {
  const live = $("live");
  const events = new EventSource("events");
  let queue: Promise<void> = Promise.resolve();
  events.addEventListener("open", () => {
    live.className = "live on";
    fill(live, "live");
  });
  events.addEventListener("error", () => {
    live.className = "live off";
    fill(live, "reconnecting");
  });
  let calm: number | undefined;
  events.addEventListener("changed", (e) => {
    const event = JSON.parse((e as MessageEvent<string>).data) as ChangeEvent;
    live.className = "live on flash";
    fill(live, `changed: ${event.what.join(", ")}`);
    clearTimeout(calm);
    calm = window.setTimeout(() => {
      live.className = "live on";
      fill(live, "live");
    }, 2000);
    queue = queue.then(() => onChange(event)).catch(() => {});
  });
  events.addEventListener("asks", (e) => {
    showAsks($("asks"), JSON.parse((e as MessageEvent<string>).data) as AskView[]);
  });
}

start().catch((error) => {
  fill($("view"), h("p", { class: "error" }, `the inspector could not start: ${(error as Error).message}`));
});
