// The doctor's live watcher probe: the plane's real watcher sees an add, a rename and a delete in
// time; a watcher that delivers nothing (or one that cannot start) fails both rows' findings.
import { describe, expect, it } from "vitest";
import { probeWatcher } from "../../src/doctor/watch-probe.js";

describe("the doctor's watcher probe", () => {
  it("passes with the real watcher", async () => {
    expect(await probeWatcher()).toEqual({ missedAdds: [], missedDeletions: [], errors: [] });
  });

  it("a watcher that delivers no change misses the add, the rename and the delete", async () => {
    // loads once, then never hears of a change: what a filesystem without events gives
    const deaf = async (discovery: { load(): Promise<void> }) => {
      await discovery.load();
      return { close: async () => {} };
    };
    const probe = await probeWatcher(300, deaf as never);
    expect(probe.missedAdds).toEqual([
      "a skill added to a watched root was not seen within 300 ms",
      "a skill renamed in a watched root was not seen under its new name within 300 ms",
    ]);
    // (the renamed skill was never seen under its old name, so only the delete is missed)
    expect(probe.missedDeletions).toEqual(["a deleted skill was still held after 300 ms"]);
  });

  it("a watcher that cannot start is an error, not a pass", async () => {
    const broken = async () => {
      throw new Error("ENOSPC: System limit for number of file watchers reached");
    };
    const probe = await probeWatcher(100, broken);
    expect(probe.errors).toEqual([
      "the watcher did not start: ENOSPC: System limit for number of file watchers reached",
    ]);
  });
});
