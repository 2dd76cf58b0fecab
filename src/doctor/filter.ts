import { expectations, scopeLabel } from "./expect.js";
import { type DoctorCheck, type DoctorContext, row } from "./types.js";

/** Row 7: names doctor.expect says a chain's model must see, that it does not, with the reason. */
export async function attachmentCheck(ctx: DoctorContext): Promise<DoctorCheck> {
  const { plane } = ctx;
  const findings: string[] = [];
  let checked = 0;
  for (const e of expectations(plane)) {
    const tools = await plane.tools.snapshot(e.chain);
    const skillSnap = await plane.skills.snapshot(e.chain);
    const view = await plane.discovery.view(e.chain);
    for (const name of e.names) {
      checked++;
      const where = `"${name}" in ${scopeLabel(e.scope)}`;
      const tool = tools.get(name);
      if (tool) {
        const reason = plane.withheldReasonOf(tool);
        if (reason) findings.push(`${where} is not attached: ${reason}`);
        continue;
      }
      const skill = view.skills.find((s) => s.name === name);
      if (skill) {
        if (skill.disabled) findings.push(`${where} is not attached: it is disabled (skills.disabled)`);
        else if (!skill.modelVisible)
          findings.push(
            `${where} is not attached: model invocation is disabled (disable-model-invocation: true)`,
          );
        continue;
      }
      const withheld =
        tools.withheld.find((w) => w.name === name) ?? skillSnap.withheld.find((w) => w.name === name);
      if (withheld)
        findings.push(
          `${where} is not attached: withheld by the restriction of layer ${withheld.by} (scopes.restrictions)`,
        );
      // Names no layer of the chain registers are the layer-attribution check's finding.
    }
  }
  return row(
    "filter",
    "missing-attachment",
    `${checked} expected name(s) from doctor.expect checked against what each scope's model sees`,
    findings,
    "remove the name from tools.disabled / skills.disabled, allow it in scopes.restrictions, drop disable-model-invocation, or relax the permission rule that denies it",
  );
}
