import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  AskView,
  CallView,
  CatalogView,
  DeferralView,
  LayersPageView,
  SearchView,
  SelectionView,
  StateView,
  ToolForm,
} from "../../src/inspect/api-types.js";
import { type Inspector, startInspector } from "../../src/inspect/index.js";
import { MAX_BODY_BYTES } from "../../src/inspect/server.js";
import { tempProject } from "../helpers/tmp.js";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A raw HTTP request, so Host and Origin can be anything (fetch does not let a test set Host). */
function send(
  port: number,
  target: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, path: target, method: opts.method ?? "GET", headers: opts.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on("error", reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** The server-sent events of one stream, as they arrive. */
function events(port: number, target: string) {
  const seen: Array<{ event: string; data: unknown; at: number }> = [];
  let buffer = "";
  const req = httpRequest({ host: "127.0.0.1", port, path: target }, (res) => {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      buffer += chunk;
      let end = buffer.indexOf("\n\n");
      while (end !== -1) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (event && data) seen.push({ event, data: JSON.parse(data), at: Date.now() });
        end = buffer.indexOf("\n\n");
      }
    });
  });
  req.on("error", () => {});
  req.end();
  return {
    seen,
    /** Waits for an event matching `pred` that arrived after `since`. */
    async next(pred: (e: { event: string; data: unknown }) => boolean, since: number, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const hit = seen.find((e) => e.at >= since && pred(e));
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`no matching event within ${timeoutMs} ms; saw ${JSON.stringify(seen)}`);
    },
    close: () => req.destroy(),
  };
}

let inspector: Inspector;
let project: ReturnType<typeof tempProject>;
let base: string;
let port: number;
const host = () => ({ host: `127.0.0.1:${port}` });

const get = async <T>(route: string): Promise<T> => {
  const r = await send(port, `${base}${route}`, { headers: host() });
  if (r.status !== 200) throw new Error(`${route}: ${r.status} ${r.text}`);
  return JSON.parse(r.text) as T;
};
const post = (route: string, body: unknown) =>
  send(port, `${base}${route}`, {
    method: "POST",
    headers: { ...host(), "content-type": "application/json" },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  project = tempProject({
    ".toolplane/skills/pdf-tools/SKILL.md":
      "---\nname: pdf-tools\ndescription: Extract text from PDF files.\n---\nbody\n",
    "long.txt": `${"x".repeat(5000)}\nshort\n`,
    "many.txt": Array.from({ length: 300 }, (_, i) => `match line ${i} of a file with many matches`).join(
      "\n",
    ),
  });
  inspector = await startInspector({
    cwd: project.repo,
    env: project.env,
    bundledSkills: null,
    port: 0,
    set: [
      "defer.threshold=3",
      "defer.tools={}",
      "results.inlineMaxBytes=4096",
      // bash runs here only to make an output that spills (grep and read page within the limit)
      "tools.sandbox=off",
      'permissions.rules=[{"effect":"deny","tool":"glob"},{"effect":"ask","tool":"grep"},{"effect":"allow","tool":"bash"}]',
    ],
  });
  port = inspector.port;
  base = new URL(inspector.url).pathname.replace(/\/$/, "");
});

afterAll(async () => {
  await inspector?.close();
});

describe("toolplane inspect's server: nothing without the token, nothing for another site", () => {
  it("serves on 127.0.0.1 with the token as the first path segment", () => {
    expect(inspector.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\/$/);
  });

  it("answers 401 to every route without the token, or with a wrong one", async () => {
    const token = base.slice(1);
    const wrong = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const target of [
      "/",
      "/api/state",
      "/events",
      "/style.css",
      "/page/main.js",
      `/${wrong}/`,
      `/${wrong}/api/state`,
      `/${token}x/api/state`,
      "/api/state?token=" + token,
    ]) {
      const r = await send(port, target, { headers: host() });
      expect(r.status, target).toBe(401);
      expect(r.text, target).toContain("token");
      expect(r.text, target).not.toContain(token);
    }
    const post401 = await send(port, "/api/call", {
      method: "POST",
      headers: { ...host(), "content-type": "application/json" },
      body: JSON.stringify({ tool: "read", args: { path: "long.txt" } }),
    });
    expect(post401.status).toBe(401);
  });

  it("refuses another Host (DNS rebinding) and another Origin even with the token", async () => {
    const page = `${base}/`;
    expect((await send(port, page, { headers: { host: `evil.example:${port}` } })).status).toBe(403);
    expect((await send(port, page, { headers: { host: "127.0.0.1:1" } })).status).toBe(403);
    expect((await send(port, page, { headers: { ...host(), origin: "http://evil.example" } })).status).toBe(
      403,
    );
    expect((await send(port, page, { headers: { ...host(), origin: "null" } })).status).toBe(403);
    expect(
      (await send(port, page, { headers: { ...host(), origin: `http://127.0.0.1:${port}` } })).status,
    ).toBe(200);
    expect((await send(port, page, { headers: { host: `localhost:${port}` } })).status).toBe(200);
  });

  it("sends the page with a strict policy and no CORS, and redirects the bare token to its folder", async () => {
    const r = await send(port, `${base}/`, { headers: host() });
    expect(r.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(r.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(r.headers["access-control-allow-origin"]).toBeUndefined();
    expect(r.headers["referrer-policy"]).toBe("no-referrer");
    expect(r.text).toContain('<script type="module" src="page/main.js">');
    expect(r.text).not.toMatch(/<script>|\son\w+=|style="/);
    const bare = await send(port, base, { headers: host() });
    expect(bare.status).toBe(308);
    expect(bare.headers.location).toBe(`${base}/`);
    expect((await send(port, `${base}/page/..%2Fserver.js`, { headers: host() })).status).toBe(404);
  });

  it("caps and checks request bodies before anything runs", async () => {
    const big = await send(port, `${base}/api/call`, {
      method: "POST",
      headers: { ...host(), "content-type": "application/json" },
      body: Buffer.alloc(MAX_BODY_BYTES + 10, 0x20),
    });
    expect(big.status).toBe(413);
    const form = await send(port, `${base}/api/call`, {
      method: "POST",
      headers: { ...host(), "content-type": "application/x-www-form-urlencoded" },
      body: "tool=read",
    });
    expect(form.status).toBe(415);
    const bad = await send(port, `${base}/api/call`, {
      method: "POST",
      headers: { ...host(), "content-type": "application/json" },
      body: "{",
    });
    expect(bad.status).toBe(400);
    expect((await send(port, `${base}/api/call`, { headers: host() })).status).toBe(405);
  });
});

describe("what the page shows", () => {
  it("the catalog per provider exactly as the library renders it, with its budget drawn piece by piece", async () => {
    for (const provider of ["anthropic", "openai-chat", "gemini"]) {
      const v = await get<CatalogView>(`/api/catalog?provider=${provider}`);
      const plane = inspector.session.plane;
      const direct = await plane.catalog(provider as "anthropic");
      const { report: _a, ...pieces } = v.catalog;
      const { report: _b, ...directPieces } = direct;
      expect(pieces).toEqual(JSON.parse(JSON.stringify(directPieces)));
      expect(v.totals.chars).toBe(v.catalog.budget.chars.used);
    }
    expect((await send(port, `${base}/api/catalog?provider=nope`, { headers: host() })).status).toBe(400);
  });

  it("deferral: where each tool is and why, and the threshold band", async () => {
    const v = await get<DeferralView>("/api/deferral");
    expect(v.band).toMatchObject({ mode: "threshold", threshold: 3, releaseAt: 2, triggered: true });
    const ticket = v.tools.find((t) => t.name === "ticket_status");
    expect(ticket).toMatchObject({ residency: "deferred", mark: "auto" });
    expect(ticket?.reason).toMatch(/^over the threshold/);
    expect(v.tools.find((t) => t.name === "read")?.reason).toBe("marked defer: never (built-in tool)");
    expect(v.tools.find((t) => t.name === "tool_search")?.residency).toBe("resident");
  });

  it("layers: denied tools and why, skills with root and rank, trust", async () => {
    const v = await get<LayersPageView>("/api/layers");
    const glob = v.layers[0]?.entries.find((e) => e.name === "glob");
    expect(glob?.state).toBe("denied");
    expect(glob?.why).toMatch(/^it is denied by rule #1 of permissions\.rules/);
    expect(v.layers[0]?.entries.find((e) => e.name === "read")?.state).toBe("active");
    expect(v.skills).toEqual([
      expect.objectContaining({
        name: "pdf-tools",
        rank: 100,
        form: "bundle",
        modelVisible: true,
        userVisible: true,
      }),
    ]);
    expect(v.trust.trusted).toBe(false);
  });

  it("search ranks without loading; run loads as tool_search does; selection cases pass or fail", async () => {
    const dry = await post("/api/search", { query: "ticket status", over: "deferred" });
    const ranked = JSON.parse(dry.text) as SearchView;
    expect(ranked.results[0]).toMatchObject({ name: "ticket_status", residency: "deferred" });
    expect(ranked.results[0]!.score).toBeGreaterThan(0);
    expect(
      (await get<DeferralView>("/api/deferral")).tools.find((t) => t.name === "ticket_status")?.residency,
    ).toBe("deferred");
    const all = JSON.parse(
      (await post("/api/search", { query: "read a file", over: "all" })).text,
    ) as SearchView;
    expect(all.results.map((r) => r.name)).toContain("read");
    const badPattern = await post("/api/search", { pattern: "(" });
    expect(badPattern.status).toBe(400);
    expect(badPattern.text).toContain("not a valid regular expression");

    const run = JSON.parse(
      (await post("/api/search", { query: "ticket status", limit: 1, run: true })).text,
    ) as SearchView;
    expect(run.ran?.result.content[0]?.text).toContain("ticket_status");
    expect(run.ran?.trace[0]).toMatchObject({ kind: "decision", effect: "allow" });
    expect(
      (await get<DeferralView>("/api/deferral")).tools.find((t) => t.name === "ticket_status"),
    ).toMatchObject({
      residency: "resident",
      loaded: true,
      reason: "loaded by tool_search",
    });

    const selection = await get<SelectionView>("/api/selection");
    const ticket = selection.tools.find((t) => t.tool === "ticket_status");
    expect(ticket?.search.cases.map((c) => c.expect)).toEqual(
      expect.arrayContaining(["select", "not-select"]),
    );
    expect(selection.summary.cases).toBeGreaterThan(0);
  });

  it("the call form's tools carry their schemas; a cut call shows its marker and the rule that allowed it", async () => {
    const forms = await get<ToolForm[]>("/api/tools");
    const read = forms.find((f) => f.name === "read");
    expect(Object.keys((read!.parameters as { properties: object }).properties)).toContain("path");
    expect(read!.title).toBe("Read");
    expect(forms.find((f) => f.name === "glob")).toBeUndefined();

    const r = await post("/api/call", { tool: "read", args: { path: "long.txt" } });
    const call = JSON.parse(r.text) as CallView;
    // the tool's display part says what ran, for the page; the model's result is apart
    expect(call.summary).toBe("Read: read long.txt");
    expect(call.result.content[0]?.text).not.toContain("Read: read");
    expect(call.result.isError).toBe(false);
    expect(call.result.truncated).toBe(true);
    expect(call.result.content[0]?.text).toContain("[line cut:");
    expect(call.trace[0]).toMatchObject({ kind: "decision", effect: "allow" });

    const denied = JSON.parse(
      (await post("/api/call", { tool: "glob", args: { pattern: "*" } })).text,
    ) as CallView;
    expect(denied.result.error?.code).toBe("permission_denied");
  });

  it("an ask waits for the page's answer, never approved by itself", async () => {
    const stream = events(port, `${base}/events`);
    try {
      const since = Date.now();
      const pending = post("/api/call", {
        tool: "grep",
        args: { pattern: "match line", output_mode: "content" },
      });
      const asked = await stream.next((e) => e.event === "asks" && (e.data as AskView[]).length > 0, since);
      const ask = (asked.data as AskView[])[0]!;
      expect(ask.tool).toBe("grep");
      expect(ask.requests[0]?.decidedBy).toMatch(/permissions\.rules/);
      expect((await get<StateView>("/api/state")).asks.map((a) => a.id)).toEqual([ask.id]);
      // nothing answers: the call is still waiting
      const race = await Promise.race([
        pending.then(() => "done"),
        new Promise((r) => setTimeout(() => r("waiting"), 300)),
      ]);
      expect(race).toBe("waiting");
      expect((await post("/api/ask", { id: ask.id, approve: true })).status).toBe(200);
      const call = JSON.parse((await pending).text) as CallView;
      expect(call.result.isError).toBe(false);
      // a page within results.inlineMaxBytes, and where the next one starts
      expect(call.result.truncated).toBe(true);
      expect(call.result.content[0]?.text).toContain(`offset=${call.result.nextOffset}`);
      expect(call.trace.find((t) => t.kind === "ask")).toMatchObject({ approved: true });
      expect((await post("/api/ask", { id: ask.id, approve: true })).status).toBe(404);
      // over results.inlineMaxBytes: the model gets a preview and where the rest went
      const spilled = JSON.parse(
        (await post("/api/call", { tool: "bash", args: { command: "cat many.txt" } })).text,
      ) as CallView;
      expect(spilled.result.spillPath).toBeDefined();
      expect(spilled.result.truncated).toBe(true);
      expect(spilled.result.content[0]?.text).toContain(spilled.result.spillPath);

      const since2 = Date.now();
      const denied = post("/api/call", { tool: "grep", args: { pattern: "short" } });
      const second = await stream.next((e) => e.event === "asks" && (e.data as AskView[]).length > 0, since2);
      await post("/api/ask", { id: (second.data as AskView[])[0]!.id, approve: false });
      const deniedCall = JSON.parse((await denied).text) as CallView;
      expect(deniedCall.result.error?.code).toBe("permission_denied");
    } finally {
      stream.close();
    }
  });
});

describe("live: changes reach the page over server-sent events", () => {
  it("a skill added on disk, and a changed configuration file (reloaded; a broken one keeps the last)", async () => {
    const stream = events(port, `${base}/events`);
    try {
      const before = await get<CatalogView>("/api/catalog?provider=mcp");
      let since = Date.now();
      const dir = path.join(project.repo, ".toolplane", "skills", "csv-clean");
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        path.join(dir, "SKILL.md"),
        "---\nname: csv-clean\ndescription: Clean CSV files.\n---\nbody\n",
      );
      await stream.next(
        (e) => e.event === "changed" && (e.data as { what: string[] }).what.includes("skills"),
        since,
      );
      const after = await get<CatalogView>("/api/catalog?provider=mcp");
      // the listing is an attachment (catalog.volatile's default): the prompt cache survives it
      expect(after.catalog.attachments.map((a) => a.text).join("\n")).toContain(
        "- csv-clean: Clean CSV files.",
      );
      expect(after.catalog.system).toBe("");
      expect(after.catalog.prefixHash).toBe(before.catalog.prefixHash);
      expect(after.change).toEqual(before.change);

      // the user's configuration file (trusted) disables a tool: a new Toolplane, the same page
      const userConfig = path.join(project.home, ".config", "toolplane", "config.json");
      since = Date.now();
      mkdirSync(path.dirname(userConfig), { recursive: true });
      writeFileSync(userConfig, JSON.stringify({ tools: { disabled: ["read"] } }));
      await stream.next(
        (e) => e.event === "changed" && (e.data as { what: string[] }).what.includes("config"),
        since,
      );
      const layers = await get<LayersPageView>("/api/layers");
      expect(layers.layers[0]?.entries.find((e) => e.name === "read")).toMatchObject({
        state: "disabled",
        why: "it is disabled (tools.disabled)",
      });

      since = Date.now();
      writeFileSync(userConfig, "{ not json");
      await stream.next(
        (e) => e.event === "changed" && (e.data as { what: string[] }).what.includes("config"),
        since,
      );
      // the watcher may deliver an earlier write's event after `since` on a loaded machine: poll the state
      await expect
        .poll(async () => (await get<StateView>("/api/state")).configError, { timeout: 10_000 })
        .toMatch(/config\.json/);
      // the last good configuration stays in use
      expect((await get<ToolForm[]>("/api/tools")).some((t) => t.name === "read")).toBe(false);

      since = Date.now();
      rmSync(userConfig);
      await stream.next(
        (e) => e.event === "changed" && (e.data as { what: string[] }).what.includes("config"),
        since,
      );
      await expect
        .poll(async () => (await get<StateView>("/api/state")).configError, { timeout: 10_000 })
        .toBeUndefined();
      expect((await get<ToolForm[]>("/api/tools")).some((t) => t.name === "read")).toBe(true);
    } finally {
      stream.close();
    }
  });
});
