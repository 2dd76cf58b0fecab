import type { Command } from "commander";
import { examples, lazyAction, withCommon } from "../common.js";

export function evalCommand(program: Command): void {
  const cmd = program.command("eval").description("evaluations of what the model sees");
  const selection = cmd
    .command("selection")
    .description(
      "run every tool's selection cases through tool search and, with --endpoint, against a model: " +
        "chosen when it should be, left alone when not; exit 1 if any case fails",
    )
    .option("--endpoint <url>", "an OpenAI Chat Completions API base, e.g. http://127.0.0.1:8000/v1")
    .option("--model <name>", "the model to ask at --endpoint");
  withCommon(selection);
  examples(selection, [
    "toolplane eval selection",
    "TOOLPLANE_EVAL_API_KEY=sk-... toolplane eval selection --endpoint https://api.openai.com/v1 --model gpt-4.1-mini",
    "toolplane eval selection --endpoint http://127.0.0.1:11434/v1 --model qwen3:8b --json",
  ]);
  selection.action(lazyAction(() => import("../actions/eval.js")));
}
