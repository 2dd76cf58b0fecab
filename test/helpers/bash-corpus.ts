import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./cli.js";

interface Case {
  verdict: "run" | "ask" | "deny";
  policy: string;
  source: string;
  command: string;
  /** The peer's own verdict, where toolplane's differs (`[peer: run; ...]` in the source). */
  peer?: "run" | "ask" | "deny";
}

const CONTROL: Record<string, string> = {
  "{CR}": "\r",
  "{VT}": "\v",
  "{FF}": "\f",
  "{NL}": "\n",
  "{NBSP}": "\u00a0",
};

export const corpus: Case[] = readFileSync(path.join(ROOT, "test", "fixtures", "bash-verdicts.tsv"), "utf8")
  .split("\n")
  .filter((l) => l !== "" && !l.startsWith("#"))
  .map((l) => {
    const [verdict, policy, source, ...rest] = l.split("\t");
    const command = rest.join("\t").replace(/\{(CR|VT|FF|NL|NBSP)\}/g, (m) => CONTROL[m]!);
    const peer = /\[peer: (run|ask|deny)/.exec(source!)?.[1] as Case["peer"];
    return {
      verdict: verdict as Case["verdict"],
      policy: policy!,
      source: source!,
      command,
      ...(peer ? { peer } : {}),
    };
  });
