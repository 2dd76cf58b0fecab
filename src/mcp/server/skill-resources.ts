import path from "node:path";
import { bundlePath, readBundleFile } from "../../discover/bundle-file.js";
import { listBundle } from "../../discover/read-body.js";
import type { SkillListing, SkillsView } from "../../discover/view.js";
import { contentsOf, type ResourceSource } from "./resources.js";

/** Every file of a skill bundle, by skill name and path in the bundle. */
export const SKILL_TEMPLATE = "skill://{name}/{+path}";
const SCHEME = "skill://";
/** Paths a completion offers at most (the walk itself is bounded by BUNDLE_WALK_MAX_ENTRIES). */
const COMPLETION_MAX = 100;

const MIME_BY_EXT: Record<string, string> = {
  ".md": "text/markdown",
  ".txt": "text/plain",
  ".json": "application/json",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".html": "text/html",
  ".css": "text/css",
  ".csv": "text/csv",
  ".xml": "application/xml",
  ".svg": "image/svg+xml",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".ts": "text/x-typescript",
  ".py": "text/x-python",
  ".sh": "text/x-shellscript",
};

export function skillUri(name: string, rel: string): string {
  return `${SCHEME}${encodeURIComponent(name)}/${rel.split("/").map(encodeURIComponent).join("/")}`;
}

/** `skill://NAME/PATH` -> its parts (decoded); undefined when the uri is not one. */
function parseSkillUri(uri: string): { name: string; rel: string } | undefined {
  if (!uri.startsWith(SCHEME)) return undefined;
  const rest = uri.slice(SCHEME.length);
  const slash = rest.indexOf("/");
  if (slash <= 0) return undefined;
  try {
    return {
      name: decodeURIComponent(rest.slice(0, slash)),
      rel: rest
        .slice(slash + 1)
        .split("/")
        .map(decodeURIComponent)
        .join("/"),
    };
  } catch {
    return undefined;
  }
}

/**
 * The skill bundles as resources. resources/list names each skill's own file (one entry per
 * skill, however large its bundle); every other file is reached through the `skill://{name}/{+path}`
 * template, whose completion walks the bundle with a bound. A flat skill's "bundle" is its one
 * file. Reads go through readBundleFile: nothing outside the bundle, no FIFO, nothing over 8 MiB.
 */
export function skillResources(view: () => Promise<SkillsView>): ResourceSource {
  const served = async () => (await view()).skills.filter((s) => !s.disabled);
  // what a read and a subscription reach alike: a flat skill's folder holds other files (other
  // skills, anything), of which only its own file is served, read or watched
  const find = async (uri: string) => {
    const parsed = parseSkillUri(uri);
    if (!parsed) return undefined;
    const skill = (await served()).find((s) => s.name === parsed.name);
    if (!skill) return undefined;
    if (skill.form === "flat" && parsed.rel !== path.basename(skill.path))
      throw new Error(`${uri}: the skill "${skill.name}" is a single file, ${path.basename(skill.path)}`);
    return { skill, rel: parsed.rel, dir: bundleDir(skill) };
  };
  return {
    list: async () =>
      (await served()).map((s) => {
        const file = path.basename(s.path);
        return {
          uri: skillUri(s.name, file),
          name: `${s.name}/${file}`,
          description: s.description,
          mimeType: "text/markdown",
        };
      }),
    templates: () => [
      {
        uriTemplate: SKILL_TEMPLATE,
        name: "skill-file",
        description: "A file of a skill's bundle: skill://NAME/PATH (PATH relative to the bundle folder)",
      },
    ],
    read: async (uri) => {
      if (!parseSkillUri(uri)) return undefined;
      const found = await find(uri);
      if (!found) throw new Error(`${uri}: no skill of that name here; list the resources again`);
      const bytes = await readBundleFile(found.dir, found.rel);
      return contentsOf(uri, bytes, MIME_BY_EXT[path.extname(found.rel).toLowerCase()]);
    },
    complete: async (template, variable, value, context) => {
      if (template !== SKILL_TEMPLATE) return undefined;
      const skills = await served();
      if (variable === "name") return skills.map((s) => s.name);
      if (variable !== "path") return [];
      const skill = skills.find((s) => s.name === context.name);
      if (!skill) return [];
      const own = path.basename(skill.path);
      if (skill.form === "flat") return [own];
      const listed = await listBundle(bundleDir(skill), skill.path, COMPLETION_MAX, (rel) =>
        rel.startsWith(value),
      );
      return [own, ...listed.files];
    },
    // the real file, checked as a read is: a subscription never watches a path outside the bundle
    fileOf: async (uri) => {
      const found = await find(uri);
      return found ? bundlePath(found.dir, found.rel) : undefined;
    },
  };
}

function bundleDir(s: SkillListing): string {
  return path.dirname(s.path);
}
