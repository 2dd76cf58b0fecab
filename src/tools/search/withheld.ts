import type { Withheld } from "./withheld-schema.js";

export type { Withheld } from "./withheld-schema.js";

export const noneWithheld = (): Withheld => ({ denied: 0, unapproved: 0 });

/** The line a search result ends with when files were left out: the count, never the names. */
export function withheldNote(w: Withheld | undefined): string | undefined {
  if (w === undefined) return undefined;
  const n = w.denied + w.unapproved;
  if (n === 0) return undefined;
  const parts = [
    ...(w.denied > 0 ? [`${w.denied} denied`] : []),
    ...(w.unapproved > 0 ? [`${w.unapproved} needing approval that was not given`] : []),
  ];
  return `(${n} file${n === 1 ? "" : "s"} withheld by permissions: ${parts.join(", ")})`;
}
