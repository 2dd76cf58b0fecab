import { parseOptions } from "../options.js";
import { compressor, patch, rsync, tar, unzip, zip } from "./archives.js";
import { chmodLike, copyLike, dd, install, ln, mktemp, rm, simpleTargets, tee } from "./files.js";
import { git } from "./git.js";
import { curl, wget } from "./network.js";
import { cargo, go, nodePackages, pip, python, systemPackages, uv } from "./packages.js";
import { READ_ONLY } from "./readonly.js";
import { find, grep, rg } from "./search.js";
import type { Handler, Site } from "./site.js";
import { perl, sed } from "./text.js";
import { shellC, wrapperSudo } from "./wrappers.js";

const HANDLERS: Record<string, Handler> = {
  rm,
  rmdir: simpleTargets(),
  unlink: simpleTargets(),
  shred: simpleTargets({ short: "ns", long: ["iterations", "size", "random-source"] }),
  truncate: simpleTargets({ short: "sr", long: ["size", "reference"] }),
  touch: simpleTargets({ short: "drt", long: ["date", "reference", "time"] }),
  mkdir: (s) => {
    const p = parseOptions(s.args, { short: "m", long: ["mode", "context"] });
    // -p makes every missing folder above each operand as well
    const parents = p.options.has("-p") || p.options.has("--parents");
    for (const w of p.operands) s.write(w, parents ? { ancestors: true } : {});
  },
  mkfifo: simpleTargets({ short: "mZ", long: ["mode", "context"] }),
  mknod: (s) => {
    const p = parseOptions(s.args, { short: "mZ", long: ["mode", "context"] });
    if (p.operands[0]) s.write(p.operands[0]);
  },
  chmod: chmodLike({ long: ["reference"] }),
  chown: chmodLike({ long: ["reference", "from"] }),
  chgrp: chmodLike({ long: ["reference"] }),
  chattr: chmodLike({ short: "pv" }),
  setfacl: chmodLike({
    short: "mMxX",
    long: ["modify", "remove", "set", "set-file", "modify-file", "remove-file"],
  }),
  cp: copyLike(false),
  mv: copyLike(true),
  ln,
  link: (s) => {
    if (s.args[1]) s.write(s.args[1]);
  },
  install,
  tee,
  sponge: simpleTargets(),
  sed,
  perl,
  dd,
  tar,
  unzip,
  zip,
  gzip: compressor,
  gunzip: compressor,
  bzip2: compressor,
  bunzip2: compressor,
  xz: compressor,
  unxz: compressor,
  zstd: compressor,
  patch,
  rsync,
  curl,
  wget,
  mktemp,
  find,
  grep,
  egrep: grep,
  fgrep: grep,
  rg,
  sudo: wrapperSudo,
  doas: wrapperSudo,
  bash: shellC,
  sh: shellC,
  dash: shellC,
  zsh: shellC,
  ksh: shellC,
  git,
  npm: nodePackages("package-lock.json", [
    "install",
    "i",
    "ci",
    "add",
    "uninstall",
    "un",
    "remove",
    "rm",
    "r",
    "update",
    "up",
    "upgrade",
    "link",
    "ln",
    "dedupe",
    "prune",
    "rebuild",
    "init",
  ]),
  pnpm: nodePackages("pnpm-lock.yaml", [
    "add",
    "install",
    "i",
    "remove",
    "rm",
    "uninstall",
    "update",
    "up",
    "upgrade",
    "link",
    "prune",
    "rebuild",
    "init",
  ]),
  yarn: nodePackages("yarn.lock", ["add", "install", "remove", "upgrade", "up", "link", "init"], true),
  bun: nodePackages("bun.lockb", ["add", "install", "i", "remove", "rm", "update", "link", "init"]),
  pip,
  pip3: pip,
  python: python,
  python3: python,
  uv,
  cargo,
  go,
  "apt-get": systemPackages([
    "install",
    "remove",
    "purge",
    "upgrade",
    "dist-upgrade",
    "autoremove",
    "update",
  ]),
  apt: systemPackages(["install", "remove", "purge", "upgrade", "full-upgrade", "autoremove", "update"]),
  dnf: systemPackages(["install", "remove", "upgrade", "update", "erase"]),
  yum: systemPackages(["install", "remove", "upgrade", "update", "erase"]),
  apk: systemPackages(["add", "del", "upgrade", "update"]),
  brew: systemPackages(["install", "uninstall", "upgrade", "reinstall", "update"]),
  pacman: (s) => {
    if (s.args.some((w) => /^-[A-Za-z]*[SRU]/.test(w.value ?? ""))) s.write("/usr", { subtree: true });
  },
  gem: systemPackages(["install", "uninstall", "update"]),
};

/**
 * Reports what one simple command writes, reads and runs to the site. A command with no entry is
 * a program the classifier knows nothing of: it needs its own rule (and the sandbox holds it).
 */
export function classifyCommand(site: Site): void {
  (HANDLERS[site.name] ?? READ_ONLY[site.name])?.(site);
}

/** Whether the classifier has knowledge of this command (its writes, reads or read-only forms). */
export function isModelled(name: string): boolean {
  return Object.hasOwn(HANDLERS, name) || Object.hasOwn(READ_ONLY, name);
}
