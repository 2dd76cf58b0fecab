/** `session-1>agent:reviewer>preset:review` -> nearest-first list of layer names. */
export function parseScopeChain(scope: string | undefined): string[] {
  if (scope === undefined || scope.trim() === "") return [];
  return scope
    .split(">")
    .map((part) => part.trim())
    .filter((part) => part !== "" && part !== "global");
}
