import { bashParserCheck } from "./bash-parser.js";
import { leakCheck, schemaCheck } from "./declare.js";
import { renameLeftoverCheck, skillFilesCheck, staleCacheCheck } from "./discover.js";
import { attachmentCheck } from "./filter.js";
import { hooksCheck } from "./hooks.js";
import { deletionCheck } from "./invalidate.js";
import { attributionCheck, overrideCheck, providerProblemsCheck } from "./register.js";
import { budgetCheck, volatileCheck } from "./render.js";
import { sandboxCheck } from "./sandbox.js";
import { untrustedProjectCheck } from "./trust.js";
import type { DoctorContext, DoctorReport } from "./types.js";
import { probeWatcher } from "./watch-probe.js";

export type { DoctorCheck, DoctorContext, DoctorReport } from "./types.js";

/**
 * The seed's failure table (section 7), one check per row, in its order, then two rows of the
 * tool layer's own: provider problems, skill files that did not load, and an untrusted project's
 * ignored keys. The skill state is
 * read before the tools are (a harness's order) and audited once; the audit repairs what it finds.
 */
export async function runDoctor(ctx: DoctorContext): Promise<DoctorReport> {
  const { plane } = ctx;
  await plane.discovery.load();
  const before = (await plane.skillsView()).skills;
  const snapshot = await plane.toolSnapshot();
  const tools = snapshot.entries.map((e) => e.entry);
  const schema = schemaCheck(tools);
  const leaks = await leakCheck(ctx);
  const overrides = await overrideCheck(ctx);
  const attribution = await attributionCheck(ctx);
  const audit = await plane.discovery.audit();
  const probe = await probeWatcher();
  const stale = staleCacheCheck(audit, plane.discovery.roots.length, probe);
  const rename = await renameLeftoverCheck((await plane.skillsView()).skills);
  const attachment = await attachmentCheck(ctx);
  const budget = await budgetCheck(ctx);
  const deletion = await deletionCheck(ctx, audit, before, probe);
  const volatile = await volatileCheck(ctx);
  const providers = await providerProblemsCheck(ctx);
  const trust = untrustedProjectCheck(ctx);
  return {
    checks: [
      schema,
      leaks,
      overrides,
      attribution,
      stale,
      rename,
      attachment,
      budget,
      volatile,
      deletion,
      providers.check,
      skillFilesCheck(await plane.skillsView()),
      trust,
      sandboxCheck(ctx),
      await bashParserCheck(),
      hooksCheck(ctx),
    ],
    problems: providers.problems,
    trust: plane.config.trust,
  };
}
