import { PROVIDERS, type ProviderName } from "../../render/index.js";
import { type CommonOptions, printJson, UsageError } from "../common.js";
import { formatCatalog } from "../format/catalog.js";
import { openToolplane } from "../open.js";

/** `toolplane catalog`: its options and help are in commands/catalog.ts, loaded without this module. */
export const action = async (opts: CommonOptions & { provider: string }) => {
  if (!(PROVIDERS as readonly string[]).includes(opts.provider)) {
    throw new UsageError(`unknown provider "${opts.provider}": use one of ${PROVIDERS.join(", ")}`);
  }
  const plane = await openToolplane(opts);
  try {
    const catalog = await plane.catalog(opts.provider as ProviderName);
    if (opts.json) printJson(catalog);
    else process.stdout.write(formatCatalog(catalog));
    if (catalog.incomplete) process.exitCode = 1;
  } finally {
    await plane.close();
  }
};
