// resources/subscribe bookkeeping (src/mcp/server/subscriptions.ts): a session that hangs up while
// its subscribe waits for the watch leaves nothing behind.
import { describe, expect, it } from "vitest";
import { Subscriptions, WATCHED_FILES_MAX } from "../../src/mcp/server/subscriptions.js";

describe("Subscriptions", () => {
  it("a subscribe still starting when its session ended keeps no watch: the server's cap stays free", async () => {
    // no file behind the uris: the bookkeeping alone, answered a tick later as a real lookup is
    const subs = new Subscriptions(async () => {
      await new Promise((r) => setTimeout(r, 1));
      return undefined;
    });
    for (let i = 0; i < WATCHED_FILES_MAX; i++) {
      const session = { updated: () => {} };
      const subscribing = subs.subscribe(session, `skill://s/${i}.md`);
      subs.forget(session);
      await subscribing;
    }
    await expect(subs.subscribe({ updated: () => {} }, "skill://s/next.md")).resolves.toBeUndefined();
    await subs.close();
  });
});
