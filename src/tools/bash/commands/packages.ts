import { has, parseOptions, valuesOf } from "../options.js";
import type { Handler } from "./site.js";

/** npm-family installs: the manifest, the lock file and the dependency folder. */
export const nodePackages =
  (lock: string, installs: readonly string[], bareInstalls = false): Handler =>
  (s) => {
    const sub = s.args.find((w) => !(w.value ?? "").startsWith("-"))?.value;
    if (sub === undefined ? !bareInstalls : !installs.includes(sub)) return;
    const global = s.args.some((w) => ["-g", "--global", "--location=global"].includes(w.value ?? ""));
    if (global) return s.write("/usr/local/lib/node_modules", { subtree: true });
    const p = parseOptions(s.args, { short: "C", long: ["prefix", "dir", "cwd"] });
    const prefix = valuesOf(p, "--prefix", "-C", "--dir", "--cwd")[0];
    if (prefix === "\0") return s.ask(`${s.name} installs into a folder only known when it runs`);
    const at = prefix !== undefined ? { base: prefix } : {};
    s.write("package.json", at);
    s.write(lock, at);
    s.write("node_modules", { ...at, subtree: true });
  };

export const pip: Handler = (s) => {
  const p = parseOptions(s.args, {
    short: "rctie",
    long: [
      "requirement",
      "constraint",
      "target",
      "index-url",
      "extra-index-url",
      "prefix",
      "root",
      "src",
      "python",
    ],
  });
  const sub = p.operands[0]?.value;
  if (!["install", "uninstall", "download", "wheel"].includes(sub ?? "")) return;
  const target = valuesOf(p, "-t", "--target", "--prefix", "--root", "-d", "--dest");
  if (target.length > 0) {
    for (const t of target) s.write(t, { subtree: true });
    return;
  }
  if (sub === "download" || sub === "wheel") return s.write(".", { subtree: false });
  if (has(p, "--user")) return s.write("~/.local", { subtree: true });
  s.ask(`${s.name} ${sub} writes into the active Python environment, which may be outside the workspace`);
};

export const python: Handler = (s) => {
  const m = s.args.findIndex((w) => w.value === "-m");
  const mod = m >= 0 ? s.args[m + 1]?.value : undefined;
  if (mod === "pip") pip({ ...s, name: "pip", args: s.args.slice(m + 2) });
};

export const systemPackages =
  (verbs: readonly string[]): Handler =>
  (s) => {
    const sub = s.args.find((w) => !(w.value ?? "").startsWith("-"))?.value;
    if (sub !== undefined && verbs.includes(sub)) s.write("/usr", { subtree: true });
  };

export const cargo: Handler = (s) => {
  const sub = s.args.find((w) => !(w.value ?? "").startsWith("-"))?.value;
  if (sub === "add" || sub === "remove" || sub === "rm" || sub === "update") {
    s.write("Cargo.toml");
    s.write("Cargo.lock");
  } else if (sub === "install" || sub === "uninstall") s.write("~/.cargo", { subtree: true });
};

export const go: Handler = (s) => {
  const sub = s.args[0]?.value;
  if (sub === "get" || (sub === "mod" && ["tidy", "edit", "init"].includes(s.args[1]?.value ?? ""))) {
    s.write("go.mod");
    s.write("go.sum");
  } else if (sub === "mod" && s.args[1]?.value === "vendor") s.write("vendor", { subtree: true });
  else if (sub === "install") s.write("~/go", { subtree: true });
};

export const uv: Handler = (s) => {
  const sub = s.args[0]?.value;
  if (sub === "pip") return pip({ ...s, name: "uv pip", args: s.args.slice(1) });
  if (["add", "remove", "sync", "lock", "init"].includes(sub ?? "")) {
    s.write("pyproject.toml");
    s.write("uv.lock");
    s.write(".venv", { subtree: true });
  }
};
