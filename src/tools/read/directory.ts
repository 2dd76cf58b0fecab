import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";

/** Entries of a folder, sorted by code unit (the same on every machine), folders with a trailing `/`. */
export async function listDirectory(dir: string): Promise<string[]> {
  const dirents = await readdir(dir, { withFileTypes: true });
  const names = await Promise.all(dirents.map((d) => entryName(dir, d)));
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

async function entryName(dir: string, d: Dirent): Promise<string> {
  if (d.isDirectory()) return `${d.name}/`;
  if (!d.isSymbolicLink()) return d.name;
  // a link to a folder reads as a folder; a broken or looping link stays a plain name
  try {
    return (await stat(path.join(dir, d.name))).isDirectory() ? `${d.name}/` : d.name;
  } catch {
    return d.name;
  }
}
