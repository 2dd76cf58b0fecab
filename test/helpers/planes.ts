import { afterEach } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import { tempProject } from "./tmp.js";

/**
 * `open(set)`: a Toolplane over a fresh temp project with the given `--set` overrides and no
 * bundled skills; every plane it opened is closed after each test. Call once at a file's top.
 */
export function tempPlanes(): (set?: string[]) => Promise<Toolplane> {
  const planes: Toolplane[] = [];
  afterEach(async () => {
    for (const plane of planes.splice(0)) await plane.close();
  });
  return async (set = []) => {
    const p = tempProject();
    const plane = await Toolplane.open({ cwd: p.repo, env: p.env, set, bundledSkills: null });
    planes.push(plane);
    return plane;
  };
}
