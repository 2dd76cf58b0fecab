export {
  parseSkillArguments,
  type SkillArgument,
  splitArguments,
  substituteArguments,
} from "./arguments.js";
export { BUNDLE_FILE_MAX_BYTES, BundleFileError, bundlePath, readBundleFile } from "./bundle-file.js";
export {
  type AuditDifference,
  type AuditReport,
  type Dirty,
  type DiscoveryOptions,
  SkillDiscovery,
} from "./discovery.js";
export { parseFrontmatter, skillBody } from "./frontmatter.js";
export { bundledSkillsDir, type RootOptions, skillRoots } from "./roots.js";
export { type EntryResult, type RootState, rootView, scanEntry, scanRoot } from "./scan.js";
export type { Skill, SkillForm, SkillProblem, SkillRoot } from "./types.js";
export { type SkillValidation, validateSkillPaths } from "./validate-paths.js";
export { type ShadowedSkill, type SkillListing, type SkillsView, skillsView } from "./view.js";
export { SkillWatcher, type WatchOptions } from "./watch.js";
