// `toolplane call --session ID`: the session's state (files read, tools' values, loaded deferred
// tools) is restored before the call and saved after it, so calls from a shell add up to one session.
import type { Toolplane } from "../assemble/index.js";
import {
  exportToolSession,
  importToolSession,
  readSession,
  sessionPath,
  sweepSessions,
  writeSession,
} from "../execute/index.js";
import { toolplaneHome } from "../util/paths.js";
import { UsageError } from "./common.js";

export interface CallSession {
  /** Saves the plane's session state under the ID. */
  save(): Promise<void>;
}

/** Checks the ID, sweeps expired sessions, and restores this one into the plane (if it was saved before). */
export async function openCallSession(plane: Toolplane, id: string): Promise<CallSession> {
  const home = toolplaneHome(process.env);
  let file: string;
  try {
    file = sessionPath(home, id);
  } catch (error) {
    throw new UsageError(`--session ${(error as Error).message.replace(/^session /, "")}`);
  }
  // sessions expire as spill files do
  await sweepSessions(home, plane.config.get("results.spillMaxAgeHours") as number);
  const saved = await readSession(file);
  if (saved) {
    importToolSession(plane.toolSession, saved);
    if (saved.loaded.length > 0) await plane.load(saved.loaded);
  }
  return {
    save: () =>
      writeSession(file, {
        version: 1,
        ...exportToolSession(plane.toolSession),
        loaded: [...plane.deferral.session.loaded],
      }),
  };
}

/** What a CLI user reads when edit or write refused a file this call's session never read. */
export const NOT_READ_HINT =
  "toolplane: each call is a session of its own unless you pass the same --session ID, e.g.\n" +
  '  toolplane call read --session s1 --args \'{"path": "f"}\'   then   toolplane call edit --session s1 --args ...';
