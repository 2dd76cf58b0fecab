// The Zod declaration of the skill tool's parameters and value: what types execute and what scripts/prebuilt.ts turns into
// the JSON Schema and the standalone validator in the .gen.ts beside it (the tool loads only those).
import { z } from "zod";

export const skillParameters = z.object({
  name: z.string().min(1).describe("the skill's name, as listed in the available skills"),
});
export type SkillArgs = z.output<typeof skillParameters>;

export const skillOutput = z.object({
  name: z.string(),
  path: z.string(),
  dir: z.string().nullable(),
  body: z.string(),
  files: z.array(z.string()),
  moreFiles: z.number().int().nonnegative(),
  moreUncounted: z.boolean().optional(),
  cutAtBytes: z.number().int().optional(),
});

// the schema and the TypeScript type must describe the same value
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: Same<z.output<typeof skillOutput>, SkillToolValue> = true;
void schemaMatchesType;

/** The canonical value: the body without frontmatter, and the bundle's files. */
export interface SkillToolValue {
  name: string;
  path: string;
  /** Bundle directory, or null for a flat skill (it has no bundled files). */
  dir: string | null;
  body: string;
  /** Paths relative to dir, sorted, at most SKILL_FILES_MAX. */
  files: string[];
  /** How many more files there are beyond `files`. */
  moreFiles: number;
  /** True when the bundle was too large to walk whole: moreFiles is then a lower bound. */
  moreUncounted?: boolean;
  /** When the skill file was longer than the body limit: its size in bytes (the body is its head). */
  cutAtBytes?: number;
}
