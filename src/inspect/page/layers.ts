import type { LayersPageView } from "../api-types.js";
import { getJson } from "./api.js";
import { fill, h, jsonText, pill, pre, section, table, yesNo } from "./dom.js";
import type { View } from "./view.js";

/** Each layer's tools and their state, the skills, and every problem. */
export function layersTab(): View {
  const el = h("div");
  async function refresh(): Promise<void> {
    const v = await getJson<LayersPageView>("api/layers");
    fill(
      el,
      v.configError ? section("Configuration", h("p", { class: "error" }, v.configError)) : null,
      section(
        "Project trust",
        h(
          "p",
          null,
          v.trust.trusted ? pill("trusted", "ok") : pill("not trusted", "deferred"),
          ` ${v.trust.project} (${v.trust.source})`,
        ),
        v.trust.ignored.length > 0
          ? [
              h(
                "p",
                null,
                `Left out of .toolplane/config.json because the project is not trusted (run \`${v.trust.command}\` to trust it):`,
              ),
              table(
                ["key", "why"],
                v.trust.ignored.map((i) => [h("span", { class: "mono" }, i.key), i.reason]),
              ),
            ]
          : null,
      ),
      v.layers.map((layer) =>
        section(
          `Layer ${layer.name}${v.chain.length > 0 ? ` (chain ${v.chain.join(" > ")})` : ""}`,
          layer.restrictions !== undefined
            ? [h("h3", null, "Restrictions"), pre(jsonText(layer.restrictions))]
            : null,
          layer.entries.length === 0
            ? h("p", { class: "muted" }, "(empty)")
            : table(
                ["tool", "provider", "state", "why"],
                layer.entries.map((e) => [
                  h("span", { class: "mono" }, e.name),
                  e.provider,
                  pill(e.state),
                  e.why ?? "",
                ]),
              ),
        ),
      ),
      section(
        `Skills (${v.skills.length})`,
        v.skills.length === 0
          ? h("p", { class: "muted" }, "No skills found in any root.")
          : h(
              "div",
              { attrs: { id: "skills" } },
              table(
                ["skill", "root", "rank", "form", "model sees", "user invokes", "description"],
                v.skills.map((s) => [
                  h(
                    "span",
                    { class: "mono", attrs: { "data-skill": s.name } },
                    s.name,
                    s.disabled ? [" ", pill("disabled")] : null,
                  ),
                  h("span", { class: "mono", title: s.path }, s.root),
                  s.rank,
                  s.form,
                  yesNo(s.modelVisible),
                  yesNo(s.userVisible),
                  s.description,
                ]),
              ),
            ),
        v.shadowedSkills.length > 0
          ? [
              h("h3", null, "Shadowed skills (a lower rank won the name)"),
              table(
                ["skill", "lost at", "rank", "won by", "rank"],
                v.shadowedSkills.map((s) => [s.name, s.path, s.rank, s.by.path, s.by.rank]),
              ),
            ]
          : null,
        v.skillProblems.length > 0
          ? [
              h("h3", null, "Skill problems"),
              table(
                ["file", "errors"],
                v.skillProblems.map((p) => [h("span", { class: "mono" }, p.path), p.errors.join("\n")]),
              ),
            ]
          : null,
      ),
      section(
        "Provider problems",
        v.problems.length === 0
          ? h("p", { class: "muted" }, "None: every provider answered in full.")
          : table(
              ["provider", "layer", "outcome", "reason"],
              v.problems.map((p) => [
                p.provider,
                p.layer,
                pill(p.outcome, "fail"),
                p.entry ? `${p.entry}: ${p.reason}` : p.reason,
              ]),
            ),
      ),
    );
  }
  return { el, refresh };
}
