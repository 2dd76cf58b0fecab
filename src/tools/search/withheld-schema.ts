// Zod, read by the output schemas of grep and glob (schema.ts) at build time only.
import { z } from "zod";

/** Files a search found but does not show, because of the permission rules. */
export const withheldSchema = z.object({
  /** Denied by a rule, the workspace boundary, or found to lead elsewhere once opened. */
  denied: z.number().int(),
  /** Asked for (permissions.askFiles, an ask rule) and not approved. */
  unapproved: z.number().int(),
});
export type Withheld = z.output<typeof withheldSchema>;
