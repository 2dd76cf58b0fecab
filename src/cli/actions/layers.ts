import { describeProblem, GLOBAL_LAYER } from "../../register/index.js";
import { describeLayers } from "../../register/layers-view.js";
import { type CommonOptions, printJson } from "../common.js";
import { openToolplane } from "../open.js";

/** `toolplane layers`: its options and help are in commands/layers.ts, loaded without this module. */
export const action = async (opts: CommonOptions) => {
  const plane = await openToolplane(opts);
  try {
    const view = await describeLayers(plane.tools, plane.chain);
    if (opts.json) {
      printJson(view);
      return;
    }
    for (const layer of view.layers) {
      process.stdout.write(`${layer.name}${layer.name === GLOBAL_LAYER ? "" : " (scope)"}\n`);
      if (layer.entries.length === 0) process.stdout.write("  (empty)\n");
      for (const e of layer.entries) {
        const note = e.shadowed ? `  shadowed by ${e.shadowedBy?.provider} in ${e.shadowedBy?.layer}` : "";
        const withheld = e.withheldBy ? `  withheld by ${e.withheldBy}` : "";
        process.stdout.write(`  ${e.name}  [${e.provider}]${note}${withheld}\n`);
      }
    }
    if (view.problems.length > 0) {
      process.stdout.write(`\nproblems (${view.problems.length}), entries of these providers are missing:\n`);
      for (const p of view.problems) process.stdout.write(`  ${describeProblem(p)}\n`);
    }
  } finally {
    await plane.close();
  }
};
