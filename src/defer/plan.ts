/** The config a deferral plan reads (`defer.*` keys). */
export interface DeferConfig {
  mode: "threshold" | "allowlist" | "off";
  /** threshold mode: defer when there are more tools than this. */
  threshold: number;
  /** threshold mode: also defer when the tools' schemas pass this many bytes (null: no byte figure). */
  maxSchemaBytes?: number | null;
  /** threshold mode: also defer when the tools' schemas pass this many o200k tokens (null: no token figure). */
  thresholdTokens?: number | null;
  /** Names never deferred (`defer.resident`). */
  resident: readonly string[];
  /**
   * Names the host itself keeps resident, each with who keeps it (not the user's `defer.resident`:
   * the skill tool while the catalog lists skills). Reported with that reason.
   */
  held?: Readonly<Record<string, string>>;
}

/**
 * A tool's own deferral mark: `never` keeps it resident, `always` defers it whenever deferral is
 * not off, `auto` (the default) leaves it to the trigger. Built-in tools are `never` by default.
 */
export type DeferMark = "never" | "always" | "auto";
export const DEFER_MARKS = ["never", "always", "auto"] as const;

/** A light tool entry: enough to plan residency without building any schema. */
export interface PlanEntry {
  name: string;
  /** Estimated bytes of the tool's model-facing definition (see estimateBytes). */
  bytes?: number;
  /** Estimated o200k tokens of the same text (see estimateText); only read with `thresholdTokens`. */
  tokens?: number;
  /** The tool's mark (default `auto`). `defer.resident` overrides it with `never`. */
  mark?: DeferMark;
  /** Who set the mark, for the reports, e.g. "built-in tool", "defer.tools", "mcp.servers.github.defer". */
  markedBy?: string;
}

export type Residency = "resident" | "deferred" | "absent";

export interface ResidencyChange {
  name: string;
  from: Residency;
  to: Residency;
  reason: string;
}

/** What a plan carries to the next one; hold it per session and hand it back. */
export interface DeferState {
  /** Whether the threshold trigger was on, for hysteresis. */
  triggered: boolean;
  residency: Readonly<Record<string, "resident" | "deferred">>;
  /** Tools loaded by tool_search, in load order. */
  loaded: readonly string[];
}

export interface DeferPlan {
  /** Resident tools in render order: registry order, then tool_search, then loaded tools in load order. */
  resident: string[];
  /** Deferred tools in registry order (listed to the model by name only). */
  deferred: string[];
  /** Tools tool_search has loaded that are still in the tool set, in load order (also in `resident`). */
  loaded: string[];
  /** True when tool_search must be offered (anything is deferred). */
  toolSearch: boolean;
  /** Every residency change against the previous plan, with its reason. Empty when nothing moved. */
  changes: ResidencyChange[];
  /** Why the trigger is on or off, in one line. */
  trigger: string;
  state: DeferState;
}

export const TOOL_SEARCH_NAME = "tool_search";

/**
 * Hysteresis band: once the threshold trigger is on it stays on until the tool count falls to
 * this share of the threshold (and bytes to this share of maxSchemaBytes). A tool set hovering
 * at the threshold then does not make every tool flip on each add and remove.
 */
export const HYSTERESIS = 0.8;

/** Initial state: nothing rendered yet. */
export const EMPTY_DEFER_STATE: DeferState = { triggered: false, residency: {}, loaded: [] };

/**
 * Plans which tools are resident and which are deferred. Pure: the same entries, config and
 * previous state give the same plan, so an unchanged tool set never flips a tool. `tool_search`
 * is never deferred and is resident whenever anything is deferred; tools it loaded stay resident
 * (appended at the end, so the rendered prefix before them does not move) while they exist.
 *
 * Marks: `never` (and `defer.resident`) stays resident; `always` is deferred unless the mode is
 * off; `auto` follows the trigger. The trigger measures the tools that would be resident without
 * it (`never` and `auto`): their count, bytes and tokens.
 */
export function planDeferral(
  entries: readonly PlanEntry[],
  config: DeferConfig,
  previous: DeferState = EMPTY_DEFER_STATE,
): DeferPlan {
  const tools = entries.filter((e) => e.name !== TOOL_SEARCH_NAME);
  const pinned = pinnedNames(config);
  const markOf = (e: PlanEntry): DeferMark => (pinned.has(e.name) ? "never" : (e.mark ?? "auto"));
  const off = config.mode === "off";

  const { triggered, trigger } = decideTrigger(
    tools,
    config,
    previous.triggered,
    off ? () => true : (e) => markOf(e) !== "always",
  );
  // one pass: resident in place, deferred, or kept loaded (a loaded tool stays loaded while it
  // would otherwise be deferred; not after it left, was marked never, or the trigger went off:
  // then it is resident in its own place)
  const wasLoaded = previous.loaded.length > 0 ? new Set(previous.loaded) : undefined;
  const loadedSet = new Set<string>();
  const deferred: string[] = [];
  const base: string[] = [];
  for (const e of tools) {
    const mark = off ? "never" : markOf(e);
    if (!(mark === "always" || (mark === "auto" && triggered))) base.push(e.name);
    else if (wasLoaded?.has(e.name)) loadedSet.add(e.name);
    else deferred.push(e.name);
  }
  const loaded = loadedSet.size > 0 ? previous.loaded.filter((n) => loadedSet.has(n)) : [];
  const toolSearch = deferred.length > 0 || loaded.length > 0;
  const resident = [...base, ...(toolSearch ? [TOOL_SEARCH_NAME] : []), ...loaded];

  // An unchanged tool set (the usual render) keeps the previous record: no diff, no sort, no garbage.
  const same = sameResidency(previous.residency, resident, deferred);
  const first = !same && isEmpty(previous.residency);
  // the first plan's record is made when the next plan reads it: a record of 10,000 names costs
  // ~10 ms (each name made a property key), and with the tool set unchanged nothing reads it
  const residency = same ? previous.residency : first ? undefined : residencyRecord(resident, deferred);

  const changes: ResidencyChange[] = [];
  // the marked tools by name, built only when something moved (an unchanged render never asks)
  let why: ReasonContext | undefined;
  const reasonFor = (name: string, to: Residency): string => {
    why ??= reasonContext(tools, config, loadedSet, trigger);
    return residencyReason(name, to, why);
  };
  if (first) {
    // the first plan: every tool arrives, and the lists say where (the names are unique): each
    // list sorted, then merged by name, so the 10,000 of a cold catalog are neither read back
    // from the record nor put in a map by name (that map was ~8% of a cold 10,000-tool catalog)
    const r = [...resident].sort();
    const d = [...deferred].sort();
    let i = 0;
    let j = 0;
    while (i < r.length || j < d.length) {
      const fromResident = j >= d.length || (i < r.length && r[i]! < d[j]!);
      const name = fromResident ? r[i++]! : d[j++]!;
      const to: Residency = fromResident ? "resident" : "deferred";
      changes.push({ name, from: "absent", to, reason: reasonFor(name, to) });
    }
  } else if (!same) {
    const all = new Set([...Object.keys(previous.residency), ...Object.keys(residency!)]);
    for (const name of [...all].sort()) {
      const from = residencyIn(previous.residency, name);
      const to = residencyIn(residency!, name);
      if (from !== to) changes.push({ name, from, to, reason: reasonFor(name, to) });
    }
  }
  if (!toolSearch && residencyIn(previous.residency, TOOL_SEARCH_NAME) === "resident") {
    const c = changes.find((x) => x.name === TOOL_SEARCH_NAME);
    if (c) c.reason = "nothing is deferred: tool_search withdrawn";
  }
  return {
    resident,
    deferred,
    loaded,
    toolSearch,
    changes,
    trigger,
    state:
      residency !== undefined
        ? { triggered, residency, loaded }
        : lazyState(triggered, loaded, () => residencyRecord(resident, deferred)),
  };
}

/** A state whose residency record is made on first read (an enumerable getter: JSON keeps it). */
function lazyState(triggered: boolean, loaded: readonly string[], make: () => ResidencyRecord): DeferState {
  let made: ResidencyRecord | undefined;
  return {
    triggered,
    get residency() {
      made ??= make();
      return made;
    },
    loaded,
  };
}

/** What the reason for a tool's residency is read from (see residencyReason). */
export interface ReasonContext {
  loaded: ReadonlySet<string>;
  off: boolean;
  /** Never deferred: `defer.resident` and the host's held names. */
  pinned: ReadonlySet<string>;
  /** `defer.resident` alone. */
  resident: ReadonlySet<string>;
  held: Readonly<Record<string, string>>;
  /** Tools with a mark other than `auto`, by name. */
  marked: ReadonlyMap<string, PlanEntry>;
  trigger: string;
}

export function reasonContext(
  tools: readonly PlanEntry[],
  config: DeferConfig,
  loaded: ReadonlySet<string>,
  trigger: string,
): ReasonContext {
  return {
    loaded,
    off: config.mode === "off",
    pinned: pinnedNames(config),
    resident: new Set(config.resident),
    held: config.held ?? {},
    marked: new Map(tools.filter((e) => e.mark !== undefined && e.mark !== "auto").map((e) => [e.name, e])),
    trigger,
  };
}

/** `defer.resident` and the names the host holds resident. */
function pinnedNames(config: DeferConfig): ReadonlySet<string> {
  const held = config.held ? Object.keys(config.held) : [];
  return held.length === 0 ? new Set(config.resident) : new Set([...config.resident, ...held]);
}

/** Why a tool is (or moved to) `to`: the reason a residency change carries, and an explanation reports. */
export function residencyReason(name: string, to: Residency, c: ReasonContext): string {
  if (to === "absent") return "left the tool set";
  if (name === TOOL_SEARCH_NAME) return to === "resident" ? "tools are deferred: tool_search offered" : "";
  if (c.loaded.has(name)) return "loaded by tool_search";
  if (c.off) return c.trigger;
  if (Object.hasOwn(c.held, name) && !c.resident.has(name)) return `kept resident by ${c.held[name]}`;
  if (c.pinned.has(name)) return "listed in defer.resident";
  const m = c.marked.get(name);
  if (m) return `marked defer: ${m.mark}${m.markedBy ? ` (${m.markedBy})` : ""}`;
  return c.trigger;
}

type ResidencyRecord = DeferState["residency"];

/** A tool's residency in a record; own keys only, so a tool named `constructor` is no special case. */
function residencyIn(record: ResidencyRecord, name: string): Residency {
  return Object.hasOwn(record, name) ? record[name]! : "absent";
}

function isEmpty(record: ResidencyRecord): boolean {
  for (const _ in record) return false;
  return true;
}

function residencyRecord(resident: readonly string[], deferred: readonly string[]): ResidencyRecord {
  const record: Record<string, "resident" | "deferred"> = Object.create(null);
  for (const n of resident) record[n] = "resident";
  for (const n of deferred) record[n] = "deferred";
  return record;
}

/** True when `record` holds exactly these tools with these residencies (names are unique). */
function sameResidency(
  record: ResidencyRecord,
  resident: readonly string[],
  deferred: readonly string[],
): boolean {
  for (const n of resident) if (residencyIn(record, n) !== "resident") return false;
  for (const n of deferred) if (residencyIn(record, n) !== "deferred") return false;
  return Object.keys(record).length === resident.length + deferred.length;
}

/** The trigger over the tools `counts` accepts (those that would be resident without it). */
function decideTrigger(
  tools: readonly PlanEntry[],
  config: DeferConfig,
  wasTriggered: boolean,
  counts: (e: PlanEntry) => boolean,
): { triggered: boolean; trigger: string } {
  if (config.mode === "off") return { triggered: false, trigger: "defer.mode is off" };
  if (config.mode === "allowlist") {
    return {
      triggered: true,
      trigger: "defer.mode allowlist: not listed in defer.resident nor marked defer: never",
    };
  }
  const maxBytes = config.maxSchemaBytes ?? null;
  const maxTokens = config.thresholdTokens ?? null;
  let count = 0;
  let bytes = 0;
  let tokens = 0;
  for (const e of tools) {
    if (!counts(e)) continue;
    count++;
    bytes += e.bytes ?? 0;
    tokens += e.tokens ?? 0;
  }
  const over =
    count > config.threshold ||
    (maxBytes !== null && bytes > maxBytes) ||
    (maxTokens !== null && tokens > maxTokens);
  const figures =
    `${count} tools (threshold ${config.threshold})` +
    (maxBytes !== null ? `, ${bytes} bytes (max ${maxBytes})` : "") +
    (maxTokens !== null ? `, ${tokens} tokens (threshold ${maxTokens})` : "");
  if (over) return { triggered: true, trigger: `over the threshold: ${figures}` };
  if (wasTriggered) {
    const stillHigh =
      count > Math.floor(config.threshold * HYSTERESIS) ||
      (maxBytes !== null && bytes > Math.floor(maxBytes * HYSTERESIS)) ||
      (maxTokens !== null && tokens > Math.floor(maxTokens * HYSTERESIS));
    if (stillHigh) return { triggered: true, trigger: `inside the hysteresis band: ${figures}` };
  }
  return { triggered: false, trigger: `under the threshold: ${figures}` };
}

/** UTF-8 bytes of the text that stands for a tool's definition: a cheap stand-in for its schema size. */
export function estimateBytes(entry: { name: string; description: string; params?: string }): number {
  return (
    Buffer.byteLength(entry.name) +
    Buffer.byteLength(entry.description) +
    Buffer.byteLength(entry.params ?? "")
  );
}

/**
 * The text that stands for a tool's definition when its tokens are counted: name, description,
 * parameter names and descriptions. Read from the declaration, so no schema is built; the JSON
 * syntax of the real schema (braces, types, `required`) comes on top of it.
 */
export function estimateText(entry: { name: string; description: string; params?: string }): string {
  return `${entry.name}\n${entry.description}\n${entry.params ?? ""}`;
}
