import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { commandTarget } from "../hooks/index.js";

/** What doctor could tell of a hook command without running it. */
export type CommandCheck =
  | { status: "ok"; program: string }
  | { status: "missing" | "not-executable" | "not-a-file"; program: string }
  | { status: "unchecked"; why: string };

/**
 * Looks up the program a hook command starts (commandTarget reads it as a shell would, as far as
 * that goes without one): a path is checked on disk, a name on PATH, and an interpreter's
 * script is checked to exist too. What only a shell can tell is unchecked, never a fault.
 */
export function checkHookCommand(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): CommandCheck {
  const target = commandTarget(command, env, cwd);
  if (target.kind === "unknown") return { status: "unchecked", why: target.why };
  if (target.kind === "builtin") return { status: "ok", program: target.program };
  const found = path.isAbsolute(target.program)
    ? onDisk(target.program, true)
    : onPath(target.program, env.PATH ?? "");
  if (found.status !== "ok" || target.script === undefined) return found;
  const script = onDisk(target.script, false);
  return script.status === "ok" ? found : script;
}

function onDisk(file: string, executable: boolean): CommandCheck {
  try {
    if (!statSync(file).isFile()) return { status: "not-a-file", program: file };
  } catch {
    return { status: "missing", program: file };
  }
  if (!executable) return { status: "ok", program: file };
  try {
    accessSync(file, constants.X_OK);
    return { status: "ok", program: file };
  } catch {
    return { status: "not-executable", program: file };
  }
}

function onPath(name: string, searchPath: string): CommandCheck {
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === "") continue;
    const hit = onDisk(path.join(dir, name), true);
    if (hit.status === "ok") return hit;
  }
  return { status: "missing", program: name };
}
