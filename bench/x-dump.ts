import { writeFileSync } from "node:fs";
import { localEmbedder } from "../src/defer/embed/local.js";
import { Bm25fIndex } from "../src/defer/search/bm25f.js";
import { findDataDir, loadRetrievalSet, paramText } from "./search-data.js";
const set = loadRetrievalSet(findDataDir());
const entries = set.catalog.map((fn) => ({ name: fn.name, description: fn.description, params: paramText(fn), fn }));
const e = localEmbedder();
const human = (n: string) => n.replace(/[_.-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2");
const variants: Record<string, (x: (typeof entries)[number]) => string> = {
  nd: (x) => `${human(x.name)}: ${x.description}`,
  n: (x) => human(x.name),
  pn: (x) => `${human(x.name)}: ${x.description} (${Object.keys((x.fn.parameters as { properties?: object })?.properties ?? {}).map(human).join(", ")})`,
};
const out: Record<string, number[][]> = {};
for (const [k, f] of Object.entries(variants)) out[k] = (await e.embed(entries.map(f))).map((v) => Array.from(v));
const qv = (await e.embed(set.queries.map((q) => q.text))).map((v) => Array.from(v));
const index = new Bm25fIndex(); index.sync(entries.map(({ fn: _, ...x }) => x));
const lex = set.queries.map((q) => index.search(q.text, 100).map((h) => [h.name, h.raw, h.score]));
writeFileSync("/tmp/semx/vecs.json", JSON.stringify({ names: entries.map((x) => x.name), out, qv, lex, queries: set.queries.map((q) => ({ relevant: q.relevant, split: q.split })) }));
await e.close();
console.log("dumped");
