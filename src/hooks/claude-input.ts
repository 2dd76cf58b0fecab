import path from "node:path";
import { BUILTIN_NAMESPACE, CLAUDE_CODE_NAMES } from "./matcher.js";

/**
 * A built-in's argument names as Claude Code's tool of the same job calls them, so a hook written
 * for Claude Code reads `tool_input.file_path` and `tool_input.old_string` unchanged. Names not
 * listed are the same in both (bash's `command`, grep's `pattern`, `glob`, `output_mode`, ...).
 */
const FIELD_NAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  read: { path: "file_path" },
  edit: { path: "file_path", oldString: "old_string", newString: "new_string", replaceAll: "replace_all" },
  write: { path: "file_path" },
  grep: { ignore_case: "-i" },
};

/** Tools whose `file_path` Claude Code gives as an absolute path. */
const ABSOLUTE_FILE_PATH = new Set(["read", "edit", "write"]);

function isBuiltin(tool: string, namespace: string): boolean {
  return namespace === BUILTIN_NAMESPACE && CLAUDE_CODE_NAMES[tool] !== undefined;
}

/** The `tool_name` a hook reads: Claude Code's for a built-in (`Bash`), else the tool's own. */
export function hookToolName(tool: string, namespace: string): string {
  return isBuiltin(tool, namespace) ? CLAUDE_CODE_NAMES[tool]![0]! : tool;
}

/** The `tool_input` a hook reads: a built-in's arguments renamed as Claude Code's, paths absolute. */
export function hookToolInput(
  tool: string,
  namespace: string,
  args: Record<string, unknown>,
  cwd: string,
): Record<string, unknown> {
  if (!isBuiltin(tool, namespace)) return args;
  const names = FIELD_NAMES[tool] ?? {};
  // fromEntries defines own properties: a `__proto__` key (JSON.parse keeps it as data) stays one
  return Object.fromEntries(
    Object.entries(args).map(([key, value]) => {
      const name = renamed(names, key);
      const absolute = name === "file_path" && ABSOLUTE_FILE_PATH.has(tool) && typeof value === "string";
      return [name, absolute ? path.resolve(cwd, value) : value];
    }),
  );
}

/**
 * A hook's `updatedInput` back in the tool's own names (Claude Code's names renamed, the tool's
 * own kept), to be validated against the tool's schema like any arguments.
 */
export function toolArgsFromHook(
  tool: string,
  namespace: string,
  input: Record<string, unknown>,
): Record<string, unknown> {
  if (!isBuiltin(tool, namespace)) return input;
  const back = Object.fromEntries(
    Object.entries(FIELD_NAMES[tool] ?? {}).map(([own, claude]) => [claude, own]),
  );
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [renamed(back, key), value]));
}

/** `key` as `names` renames it; own keys only, so an argument named `constructor` keeps its name. */
function renamed(names: Readonly<Record<string, string>>, key: string): string {
  return Object.hasOwn(names, key) ? names[key]! : key;
}
