/** Who may use a skill, after its flags and the scope's disabled list. */
export interface Visibility {
  /** Listed in the model's catalog and loadable with the skill tool. */
  modelVisible: boolean;
  /** Offered to people (a slash command). */
  userVisible: boolean;
}

export interface SkillFlags {
  /** false when `disable-model-invocation` is true (or unreadable: fail closed). */
  modelInvocable: boolean;
  /** false when `user-invocable` is false (or unreadable). */
  userInvocable: boolean;
}

/**
 * The SPEC matrix: default -> both; disable-model-invocation -> user only; user-invocable: false
 * -> model only; both -> neither (kept, dormant). A disabled entry is visible to no one.
 */
export function skillVisibility(flags: SkillFlags, disabled = false): Visibility {
  if (disabled) return { modelVisible: false, userVisible: false };
  return { modelVisible: flags.modelInvocable, userVisible: flags.userInvocable };
}
