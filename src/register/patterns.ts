// Restriction lists need only `*` wildcards over entry names; a glob library would add path
// semantics (`/`, `**`, braces) that names do not have, so this stays a few lines by hand.
export function nameMatcher(patterns: readonly string[]): (name: string) => boolean {
  const exact = new Set<string>();
  const wild: RegExp[] = [];
  for (const p of patterns) {
    if (p.includes("*")) {
      wild.push(new RegExp(`^${p.split("*").map(escapeRegExp).join(".*")}$`));
    } else exact.add(p);
  }
  return (name) => exact.has(name) || wild.some((re) => re.test(name));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
