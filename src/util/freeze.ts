/**
 * Freezes a value made fresh by the caller (parsed from JSON, or just built) all the way down:
 * nothing in it is frozen or shared yet, so every object is visited once and none is checked.
 */
export function freezeFresh<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    if (Array.isArray(value)) for (const v of value) freezeFresh(v);
    else for (const k in value) freezeFresh((value as Record<string, unknown>)[k]);
    Object.freeze(value);
  }
  return value;
}
