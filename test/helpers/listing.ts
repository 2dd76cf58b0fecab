/**
 * Everything of a catalog the model reads besides the tools: the system text, then each
 * attachment's text (where the skill listing and deferred names go under the default
 * `catalog.volatile: "attachments"`). Tests about what is listed read this, not one field.
 */
export function listingOf(catalog: { system: string; attachments: ReadonlyArray<{ text: string }> }): string {
  return [catalog.system, ...catalog.attachments.map((a) => a.text)].filter((t) => t !== "").join("\n\n");
}
