// What the sandbox mounts, as bwrap arguments: the credential stores below a shown folder are
// covered, a store the user names is not, and every mount comes after the one it lies in.
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { credentialStores, hiddenCredentials } from "../../../src/tools/sandbox/credentials.js";
import { mountArgs } from "../../../src/tools/sandbox/mounts.js";
import { tempDir, writeTree } from "../../helpers/tmp.js";

function home() {
  const h = tempDir("tp-creds-");
  writeTree(h, {
    ".ssh/id_rsa": "k",
    ".aws/credentials": "k",
    ".aws/config": "c",
    ".npmrc": "t",
    ".nvm/versions/node/v20/etc/npmrc": "t",
    ".nvm/versions/node/v22/bin/node": "",
    "project/a.txt": "",
  });
  return h;
}

describe("credential stores below a shown folder", () => {
  it("are covered where a workspace holds the home folder, and where a toolchain folder holds one", () => {
    const h = home();
    const hidden = hiddenCredentials(credentialStores([h], path.join(h, ".config/toolplane")), [h]);
    expect(hidden).toEqual(
      expect.arrayContaining([
        { path: path.join(h, ".ssh"), dir: true },
        { path: path.join(h, ".aws"), dir: true },
        { path: path.join(h, ".npmrc"), dir: false },
        { path: path.join(h, ".nvm/versions/node/v20/etc/npmrc"), dir: false },
      ]),
    );
    // shown below a folder that holds none: nothing to cover; a store that does not exist is left
    expect(hiddenCredentials(credentialStores([h], "/nonexistent"), [path.join(h, "project")])).toEqual([]);
    const nvm = hiddenCredentials(credentialStores([h], "/nonexistent"), [path.join(h, ".nvm")]);
    expect(nvm).toEqual([{ path: path.join(h, ".nvm/versions/node/v20/etc/npmrc"), dir: false }]);
  });

  it("a store the user names is shown; one named inside a store leaves the rest of it covered", () => {
    const h = home();
    const stores = credentialStores([h], "/nonexistent");
    const named = hiddenCredentials(stores, [h, path.join(h, ".aws")]).map((x) => x.path);
    expect(named).not.toContain(path.join(h, ".aws"));
    expect(named).toContain(path.join(h, ".ssh"));
    const inside = hiddenCredentials(stores, [h, path.join(h, ".aws/config")]).map((x) => x.path);
    expect(inside).toContain(path.join(h, ".aws"));
    // and the named file is mounted again over the covered folder: after it, in order of depth
    const args = mountArgs({
      mode: "read-only",
      network: false,
      roots: [h],
      readable: [path.join(h, ".aws/config")],
      hidden: hiddenCredentials(stores, [h, path.join(h, ".aws/config")]),
      cwd: h,
    }).join(" ");
    const cover = args.indexOf(`--tmpfs ${path.join(h, ".aws")} `);
    const again = args.indexOf(`--ro-bind-try ${path.join(h, ".aws/config")}`);
    expect(cover).toBeGreaterThan(args.indexOf(`--ro-bind ${h} ${h}`));
    expect(again).toBeGreaterThan(cover);
  });

  it("a folder shown through a symlink covers the stores below where it points, at the path it is shown", () => {
    const h = home();
    const link = path.join(tempDir("tp-link-"), "home-link");
    symlinkSync(h, link);
    const hidden = hiddenCredentials(credentialStores([h], "/nonexistent"), [link]).map((x) => x.path);
    expect(hidden).toContain(path.join(link, ".ssh"));
  });
});

describe("mountArgs", () => {
  it("mounts each path after the one it lies in, covers hidden folders read-only, and makes the root read-only last", () => {
    const ws = tempDir("tp-mounts-");
    mkdirSync(path.join(ws, ".git"));
    const args = mountArgs({
      mode: "workspace-write",
      network: false,
      roots: [ws],
      readable: [],
      readOnly: [path.join(ws, ".git"), path.join(ws, "secrets/inner")],
      hidden: [{ path: path.join(ws, "secrets"), dir: true }],
      home: "/home/nobody-here",
      cwd: ws,
    });
    const at = (s: string) => args.join(" ").indexOf(s);
    expect(at("--tmpfs /tmp")).toBeLessThan(at(`--bind ${ws} ${ws}`)); // the workspace lies under /tmp
    expect(at(`--bind ${ws} ${ws}`)).toBeLessThan(at(`--ro-bind ${path.join(ws, ".git")}`));
    expect(args.join(" ")).toContain(`--perms 0000 --tmpfs ${path.join(ws, "secrets")}`);
    // a protected path inside a hidden folder is hidden already: not bound again
    expect(args.join(" ")).not.toContain(path.join(ws, "secrets/inner"));
    expect(args.slice(-4)).toEqual(["--remount-ro", path.join(ws, "secrets"), "--remount-ro", "/"]);
    expect(args.join(" ")).toContain("--dir /home/nobody-here");
    expect(args.join(" ")).not.toMatch(/--(ro-)?bind \/ \//); // never the whole disk
  });
});
