import type { Command } from "commander";
import { examples, lazyAction, withCommon } from "../common.js";

export function searchCommand(program: Command): void {
  const cmd = program
    .command("search")
    .description(
      "rank tools for a query (BM25F over names, descriptions and parameters), or a batch of queries",
    )
    .argument("[query]", "what the tool should do, in words")
    .option("--limit <n>", "how many tools to return per query", "5")
    .option(
      "--tools <file>",
      "JSON array of {name, description, parameters} to search (default: this directory's tools)",
    )
    .option("--queries <file>", "JSON Lines of {id, query}: batch mode, prints JSON Lines of {id, results}");
  withCommon(cmd);
  examples(cmd, [
    "toolplane search 'find files by name'",
    "toolplane search 'convert currency' --tools tools.json --limit 3 --json",
    "toolplane search --tools tools.json --queries queries.jsonl > results.jsonl",
  ]);
  cmd.action(lazyAction(() => import("../actions/search.js")));
}
