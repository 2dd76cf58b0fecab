import { readdirSync, readFileSync } from "node:fs";

/** Live processes whose command line contains `needle` (Linux /proc). */
export function processesWith(needle: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      if (cmd === needle) found.push(`${pid}: ${cmd}`);
    } catch {
      // gone
    }
  }
  return found;
}
