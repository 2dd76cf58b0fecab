import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** A BFCL function definition as the data files give it. */
export interface BfclFunction {
  name: string;
  description: string;
  parameters: { properties?: Record<string, { description?: string }> };
}

export interface RetrievalQuery {
  id: string;
  text: string;
  /** The one relevant tool; absent for irrelevance queries. */
  relevant?: string;
  split: "simple_python" | "multiple" | "irrelevance";
}

export interface RetrievalSet {
  catalog: BfclFunction[];
  queries: RetrievalQuery[];
}

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * The development split exactly as data/README.md defines it: the catalog is every function
 * offered in simple_python, multiple and irrelevance (first definition of each name kept); the
 * queries are the user messages of simple_python and multiple (plus irrelevance, for the
 * no-tool-fits signal), each with the function its possible_answer row names.
 */
export function loadRetrievalSet(dataDir: string): RetrievalSet {
  const bfcl = path.join(dataDir, "bfcl");
  const catalog: BfclFunction[] = [];
  const seen = new Set<string>();
  const queries: RetrievalQuery[] = [];
  for (const split of ["simple_python", "multiple", "irrelevance"] as const) {
    const answers = new Map<string, string>();
    if (split !== "irrelevance") {
      for (const row of lines(path.join(bfcl, "possible_answer", `BFCL_v4_${split}.json`))) {
        const truth = (row.ground_truth as Record<string, unknown>[])[0]!;
        answers.set(row.id as string, Object.keys(truth)[0]!);
      }
    }
    for (const row of lines(path.join(bfcl, `BFCL_v4_${split}.json`))) {
      for (const fn of row.function as BfclFunction[]) {
        if (seen.has(fn.name)) continue;
        seen.add(fn.name);
        catalog.push(fn);
      }
      const turns = row.question as { role: string; content: string }[][];
      const text = turns
        .flat()
        .filter((m) => m.role === "user")
        .map((m) => m.content)
        .join("\n");
      const q: RetrievalQuery = { id: row.id as string, text, split };
      const relevant = answers.get(row.id as string);
      if (relevant !== undefined) q.relevant = relevant;
      queries.push(q);
    }
  }
  return { catalog, queries };
}

/** Parameter names and descriptions of a function, as one text. */
export function paramText(fn: BfclFunction): string {
  return Object.entries(fn.parameters?.properties ?? {})
    .map(([name, p]) => `${name} ${p.description ?? ""}`)
    .join(" ");
}

/** ../shared/data from the project root (a worktree sits one level deeper); TOOLPLANE_DATA overrides. */
export function findDataDir(root = process.cwd()): string {
  if (process.env.TOOLPLANE_DATA) return process.env.TOOLPLANE_DATA;
  for (const up of ["..", "../.."]) {
    const dir = path.resolve(root, up, "shared", "data");
    if (existsSync(path.join(dir, "bfcl"))) return dir;
  }
  throw new Error(`no shared/data/bfcl above ${root}: set TOOLPLANE_DATA to the data folder`);
}
