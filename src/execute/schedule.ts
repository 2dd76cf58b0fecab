/**
 * Groups one turn's calls: a run of consecutive concurrency-safe calls forms one parallel group;
 * every other call is a group of its own, so side effects happen one at a time and in order.
 * Returns indices into the input. Pure.
 */
export function planGroups(safe: readonly boolean[]): number[][] {
  const groups: number[][] = [];
  let run: number[] = [];
  safe.forEach((isSafe, i) => {
    if (isSafe) {
      run.push(i);
      return;
    }
    if (run.length > 0) groups.push(run);
    run = [];
    groups.push([i]);
  });
  if (run.length > 0) groups.push(run);
  return groups;
}

/** Runs tasks with at most `limit` in flight; results keep the tasks' order. */
export async function runPool<T>(tasks: ReadonlyArray<() => Promise<T>>, limit: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), tasks.length) }, worker));
  return results;
}

export interface TimeoutChoice {
  ms: number;
  /** Which setting decided, for the timeout message. */
  source: string;
}

/**
 * The most specific setting wins: a per-tool config override (tools.timeouts.NAME), then the
 * tool's own timeoutMs, then the global tools.timeoutMs. A global default never shortens a tool
 * that declared it needs longer (a build); a person can still override any one tool. Pure.
 */
export function chooseTimeout(
  tool: string,
  declared: number | undefined,
  config: Readonly<Record<string, unknown>>,
): TimeoutChoice {
  const perTool = (config["tools.timeouts"] as Record<string, number> | undefined)?.[tool];
  if (typeof perTool === "number") return { ms: perTool, source: `tools.timeouts.${tool}` };
  if (typeof declared === "number") {
    // a tool's own figure is the tool author's (or a server's); the person's cap bounds it
    const max = config["tools.maxTimeoutMs"];
    if (typeof max === "number" && declared > max)
      return { ms: max, source: `tools.maxTimeoutMs (the tool's own timeoutMs is ${declared} ms)` };
    return { ms: declared, source: "the tool's own timeoutMs" };
  }
  const global = config["tools.timeoutMs"];
  return { ms: typeof global === "number" ? global : 120_000, source: "tools.timeoutMs" };
}
