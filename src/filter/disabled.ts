import { nameMatcher } from "../register/patterns.js";

/** A scope's disabled list (names or `*` patterns) split off from what stays usable. */
export interface Split<T> {
  enabled: T[];
  disabled: T[];
}

export function splitDisabled<T extends { name: string }>(
  entries: readonly T[],
  disabledPatterns: readonly string[],
): Split<T> {
  const isDisabled = nameMatcher(disabledPatterns);
  const enabled: T[] = [];
  const disabled: T[] = [];
  for (const e of entries) (isDisabled(e.name) ? disabled : enabled).push(e);
  return { enabled, disabled };
}

/** True when the name is on the disabled list. */
export function disabledMatcher(disabledPatterns: readonly string[]): (name: string) => boolean {
  return nameMatcher(disabledPatterns);
}
