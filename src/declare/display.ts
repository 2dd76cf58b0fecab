import type { AnyTool } from "./types.js";

/** The longest summary line shown; a summarize that returns more is cut with an ellipsis. */
const MAX_SUMMARY = 200;

/**
 * What a person sees for one call of `tool` (the declaration's display part: never sent to a
 * model): its title and a one-line summary of the arguments. Only arguments the tool's schema
 * takes are summarised: a summarize is written for those (`read ${path}` of `{}` read "read
 * undefined"), and a call with others is refused before it runs anyway. A summarize that throws
 * gives no summary rather than an error.
 */
export function displayCall(tool: AnyTool, args: unknown): { title: string; summary?: string } {
  const display = tool.host.display;
  const title = display?.title ?? tool.name;
  if (!display?.summarize || !takes(tool, args)) return { title };
  try {
    const line = String((display.summarize as (a: unknown) => unknown)(args))
      .replace(/\s+/g, " ")
      .trim();
    if (line === "") return { title };
    return { title, summary: line.length > MAX_SUMMARY ? `${line.slice(0, MAX_SUMMARY - 1)}…` : line };
  } catch {
    return { title };
  }
}

/** Whether the tool's schema takes these arguments (checked on a copy: a validator may fill in defaults). */
function takes(tool: AnyTool, args: unknown): boolean {
  try {
    return tool.validateInput(structuredClone(args)).ok;
  } catch {
    return false;
  }
}
