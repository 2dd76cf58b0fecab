import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, ROOT } from "../helpers/cli.js";
import { CHROMIUM } from "../helpers/system-parts.js";
import { tempDir, tempProject } from "../helpers/tmp.js";

/**
 * The inspector as a person uses it: `toolplane inspect` (the built CLI) in a real Chromium driven
 * by Playwright. Debian's chromium, not a browser Playwright downloads (nothing downloads here).
 */
const SKIP = `needs Debian's chromium at ${CHROMIUM}: apt-get install chromium`;
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`test/inspect/browser.test.ts is skipped: it ${SKIP}`);

/** Where the screenshots go (docs/inspect regenerates the ones the docs show). */
const SHOTS = process.env.TOOLPLANE_INSPECT_SHOTS ?? path.join(ROOT, "test-output", "inspect");
/** A name the browser resolves to 127.0.0.1, as a rebinding attacker's domain would. */
const REBIND_HOST = "rebind.test";

let child: ChildProcess;
let context: BrowserContext;
let page: Page;
let url: string;
let project: ReturnType<typeof tempProject>;
let evil: Server;

async function startCli(): Promise<string> {
  child = spawn(
    process.execPath,
    [
      CLI,
      "inspect",
      "--json",
      "--cwd",
      project.repo,
      "--set",
      "defer.threshold=3",
      // the listing in the system text, so a skill added shows a prefix change and its diff
      // (under the default, attachments, it changes no prefix byte: test/inspect/server.test.ts)
      "--set",
      "catalog.volatile=system",
      "--set",
      "catalog.budget.chars=1900",
      // a cut line short enough to show its marker on screen
      "--set",
      "results.lineMaxChars=400",
    ],
    { env: project.env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let err = "";
  child.stderr?.on("data", (c: Buffer) => {
    err += c.toString();
  });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`toolplane inspect printed no address: ${err}`)), 20_000);
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    child.once("exit", (code) => reject(new Error(`toolplane inspect exited ${code}: ${err}`)));
  });
}

const MARKUP = '<img src=x onerror="window.pwned=1"><b>not bold</b>';

const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, name) });

describe.skipIf(!haveChromium)(`toolplane inspect in a real browser [${SKIP}]`, () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    project = tempProject({
      ".toolplane/skills/pdf-tools/SKILL.md":
        "---\nname: pdf-tools\ndescription: Extract text and tables from PDF files, fill PDF forms, merge and split documents.\n---\nbody\n",
      ".toolplane/skills/release-notes/SKILL.md": `---\nname: release-notes\ndescription: ${"Write release notes from the git log, grouped by area, with links to issues and pull requests. ".repeat(4).trim()}\n---\nbody\n`,
      // untrusted text that would run as markup if the page parsed it as HTML
      ".toolplane/skills/markup/SKILL.md": `---\nname: markup\ndescription: ${JSON.stringify(MARKUP)}\n---\nbody\n`,
      "long.txt": `${"0123456789".repeat(500)}\nshort line\n`,
      "lines.txt": `${Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n")}\n`,
    });
    url = await startCli();
    const { chromium } = await import("playwright-core");
    context = await chromium.launchPersistentContext(tempDir("tp-chromium-"), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 860 },
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--host-resolver-rules=MAP ${REBIND_HOST} 127.0.0.1`,
      ],
    });
    page = context.pages()[0] ?? (await context.newPage());
    // a page of another site on this machine, to send the inspector a request from a foreign origin
    evil = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><title>another site</title>");
    });
    await new Promise<void>((resolve) => evil.listen(0, "127.0.0.1", () => resolve()));
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await new Promise<void>((resolve) => (evil ? evil.close(() => resolve()) : resolve()));
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  });

  it("is not reachable without the token, through another host name, or from another site", async () => {
    const { port, pathname } = new URL(url);
    const bare = await page.goto(`http://127.0.0.1:${port}/`);
    expect(bare?.status()).toBe(401);
    expect(await page.textContent("body")).toContain("missing or wrong token");
    const wrong = await page.goto(`http://127.0.0.1:${port}/${"x".repeat(43)}/`);
    expect(wrong?.status()).toBe(401);
    // DNS rebinding: a foreign name that resolves to 127.0.0.1 gets nothing, even with the token
    const rebound = await page.goto(`http://${REBIND_HOST}:${port}${pathname}`);
    expect(rebound?.status()).toBe(403);
    expect(await page.textContent("body")).toContain("forbidden host");
    // another site's page asking with the token is refused too (its Origin names that site)
    await page.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
    const answer = page.waitForResponse((r) => r.url().startsWith(url), { timeout: 10_000 });
    await page.evaluate((target) => {
      // a form-like POST, the request a page may send anywhere: the browser names its site in Origin
      void fetch(target, { method: "POST", mode: "no-cors", body: '{"tool":"read"}' }).catch(() => {});
    }, `${url}api/call`);
    expect((await answer).status()).toBe(403);
  });

  it("shows the catalog and switches providers", async () => {
    const response = await page.goto(url);
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
    await page.waitForSelector("#prefix-hash");
    await page.waitForSelector("tr.cut");
    expect(await page.textContent("#live")).toBe("live");
    await shot("catalog.png");
    const wire = () =>
      page.$$eval("details[data-tool] pre", (pres) => pres.map((p) => p.textContent ?? "").join("\n"));
    expect(await wire()).toContain('"input_schema"');
    for (const [provider, mark] of [
      ["openai-chat", '"type": "function"'],
      ["gemini", '"parameters"'],
      ["mcp", '"inputSchema"'],
    ] as const) {
      await page.click(`button[data-provider="${provider}"]`);
      await page.locator("details[data-tool] pre", { hasText: mark }).first().waitFor({ state: "attached" });
      expect(await page.getAttribute(`button[data-provider="${provider}"]`, "aria-selected")).toBe("true");
    }
    expect(await wire()).not.toContain('"input_schema"');
  });

  it("shows a skill added on disk, without a reload, and what it did to the prefix", async () => {
    await page.click('button[data-provider="anthropic"]');
    await page.locator("pre.system", { hasText: "pdf-tools" }).waitFor();
    // tool and skill text is shown as text, never run as markup
    expect(await page.textContent("pre.system")).toContain(MARKUP);
    expect(await page.locator("main img, main b").count()).toBe(0);
    expect(await page.evaluate("window.pwned")).toBeUndefined();
    await page.evaluate("window.kept = 1");
    const dir = path.join(project.repo, ".toolplane", "skills", "csv-clean");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, "SKILL.md"),
      "---\nname: csv-clean\ndescription: Clean CSV files.\n---\nbody\n",
    );
    await page.locator("pre.system", { hasText: "csv-clean" }).waitFor({ timeout: 10_000 });
    // the same document: the change came over server-sent events
    expect(await page.evaluate("window.kept")).toBe(1);
    expect(await page.textContent("pre.diff")).toContain("+- csv-clean: Clean CSV files.");
    await shot("prefix-change.png");
    await page.click('button[data-tab="layers"]');
    await page.waitForSelector('[data-skill="csv-clean"]');
    await shot("layers.png");
  });

  it("shows deferral and runs a search", async () => {
    await page.click('button[data-tab="deferral"]');
    await page.waitForSelector(".band");
    expect(await page.textContent("main")).toContain("ticket_status");
    await shot("deferral.png");
    await page.click('button[data-tab="search"]');
    await page.fill("#search-query", "ticket status");
    await page.click("#search-rank");
    await page.locator("#search-results", { hasText: "ticket_status" }).waitFor();
    await page.waitForSelector("#selection h3");
    await shot("search.png");
  });

  it("makes a call through the host that is cut, and shows the marker", async () => {
    await page.click('button[data-tab="call"]');
    await page.waitForSelector("#arg-path");
    await page.selectOption("#call-tool", "read");
    await page.fill("#arg-path", "long.txt");
    await page.click("#call-run");
    const mark = await page.waitForSelector("mark.cut");
    expect(await mark.textContent()).toContain("line cut");
    expect(await page.textContent("#call-output")).toContain("truncated");
    await page.locator("#call-output").scrollIntoViewIfNeeded();
    await shot("call.png");
    await page.fill("#arg-path", "lines.txt");
    await page.fill("#arg-limit", "5");
    await page.click("#call-run");
    await page.waitForSelector("#next-offset");
    expect(await page.textContent("#next-offset")).toBe("6");
  });

  it("asks in the page before a write, and writes only once approved", async () => {
    await page.selectOption("#call-tool", "write");
    await page.fill("#arg-path", "notes.txt");
    await page.fill("#arg-content", "hello from the page");
    await page.click("#call-run");
    await page.waitForSelector("#ask-dialog");
    expect(existsSync(path.join(project.repo, "notes.txt"))).toBe(false);
    await shot("ask.png");
    await page.click("#ask-approve");
    await page.locator("#call-output", { hasText: "approved" }).waitFor();
    expect(readFileSync(path.join(project.repo, "notes.txt"), "utf8")).toBe("hello from the page");
    expect(await page.$("#ask-dialog")).toBeNull();
  });
});
