import type { DeferralReport, ProviderName } from "../render/index.js";

type Form = DeferralReport["form"];

/**
 * What this session's catalogs showed the model, per provider: how deferred tools appeared (by
 * name behind tool_search, or natively behind the provider's own search) and which tools went by
 * another name. A call is answered for the catalog it came from: `plane.host({ provider })`
 * names it; a host that names none takes the provider this session rendered, when that is one
 * (or all its catalogs agree), so the answer never depends on which catalog was rendered last.
 */
export class CatalogsSeen {
  private readonly byProvider = new Map<ProviderName, { form: Form; renamed: ReadonlyMap<string, string> }>();

  record(
    provider: ProviderName,
    form: Form,
    renamed: ReadonlyArray<{ name: string; wireName: string }>,
  ): void {
    const last = this.byProvider.get(provider);
    // the same renames as the last catalog (every turn, usually): keep the map
    const same =
      last !== undefined &&
      last.renamed.size === renamed.length &&
      renamed.every((r) => last.renamed.get(r.wireName) === r.name);
    this.byProvider.set(provider, {
      form,
      renamed: same ? last.renamed : new Map(renamed.map((r) => [r.wireName, r.name])),
    });
  }

  /**
   * How `provider`'s last catalog showed deferred tools (undefined: none was rendered). With no
   * provider: the form every rendered catalog agrees on, else undefined.
   */
  form(provider?: ProviderName): Form | undefined {
    if (provider !== undefined) return this.byProvider.get(provider)?.form;
    let agreed: Form | undefined;
    for (const { form } of this.byProvider.values()) {
      if (agreed !== undefined && agreed !== form) return undefined;
      agreed = form;
    }
    return agreed;
  }

  /**
   * The tool's own name for the name a call used: mapped back when `provider`'s catalog renamed
   * the tool (with no provider: when a catalog of this session did, and no two say otherwise).
   */
  toolName(name: string, provider?: ProviderName): string {
    if (provider !== undefined) return this.byProvider.get(provider)?.renamed.get(name) ?? name;
    let found: string | undefined;
    for (const { renamed } of this.byProvider.values()) {
      const own = renamed.get(name);
      if (own === undefined) continue;
      if (found !== undefined && found !== own) return name;
      found = own;
    }
    return found ?? name;
  }
}
