export { disabledMatcher, type Split, splitDisabled } from "./disabled.js";
export { type SkillFlags, skillVisibility, type Visibility } from "./visibility.js";
