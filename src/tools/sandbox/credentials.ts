import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import { realpathOfLongestPrefix } from "../../permissions/paths.js";

/**
 * Where credentials live, as paths below the home folder: keys, cloud and cluster logins,
 * registry tokens, password stores, shell histories (pasted secrets), browser profiles, and the
 * harnesses' own logins. No sandbox shows one of them, even below a folder it shows (a toolchain
 * folder, a readable path the user named, a workspace that holds the home folder), unless the
 * user names the store itself (or a path inside it) in `tools.sandboxReadable`. A `*` stands for
 * one name (each Node version nvm keeps has its own global npmrc).
 */
export const HOME_CREDENTIALS: readonly string[] = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".kube",
  ".docker",
  ".netrc",
  ".git-credentials",
  ".config/git/credentials",
  ".config/gh",
  ".config/hub",
  ".config/glab-cli",
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pypirc",
  ".config/pip",
  ".pip",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".cargo/config",
  ".cargo/config.toml",
  ".gem/credentials",
  ".m2/settings.xml",
  ".m2/settings-security.xml",
  ".gradle/gradle.properties",
  ".ivy2/.credentials",
  ".nuget/NuGet/NuGet.Config",
  ".config/NuGet/NuGet.Config",
  ".config/containers/auth.json",
  ".terraform.d/credentials.tfrc.json",
  ".vault-token",
  ".password-store",
  ".local/share/keyrings",
  ".config/op",
  ".oci",
  ".config/doctl",
  ".config/hcloud",
  ".config/rclone",
  ".s3cfg",
  ".boto",
  ".databrickscfg",
  ".pgpass",
  ".my.cnf",
  ".bash_history",
  ".zsh_history",
  ".histfile",
  ".python_history",
  ".node_repl_history",
  ".psql_history",
  ".mysql_history",
  ".lesshst",
  ".viminfo",
  ".mozilla",
  ".thunderbird",
  ".config/google-chrome",
  ".config/chromium",
  ".config/BraveSoftware",
  ".config/Code",
  ".claude/.credentials.json",
  ".codex/auth.json",
  ".nvm/versions/node/*/etc/npmrc",
  ".volta/tools/image/node/*/etc/npmrc",
];

/**
 * The system's own secrets in /etc, which every sandbox shows (programs need its passwd, hosts,
 * certificates, ld.so and locale files): password hashes, sudo rules, host keys, TLS and VPN
 * private keys, saved network passwords, Kerberos keytabs, systemd credentials.
 */
export const SYSTEM_CREDENTIALS: readonly string[] = [
  "/etc/shadow",
  "/etc/shadow-",
  "/etc/gshadow",
  "/etc/gshadow-",
  "/etc/security/opasswd",
  "/etc/sudoers",
  "/etc/sudoers.d",
  "/etc/ssh/ssh_host_*_key",
  "/etc/ssl/private",
  "/etc/pki/tls/private",
  "/etc/letsencrypt",
  "/etc/NetworkManager/system-connections",
  "/etc/wireguard",
  "/etc/openvpn",
  "/etc/ipsec.secrets",
  "/etc/ppp/chap-secrets",
  "/etc/ppp/pap-secrets",
  "/etc/krb5.keytab",
  "/etc/credstore",
  "/etc/credstore.encrypted",
];

/** A path the sandbox shows as an empty, unreadable file or folder. */
export interface HiddenPath {
  path: string;
  dir: boolean;
}

/**
 * Every credential store as an absolute pattern: the home list below each home folder (`$HOME`,
 * its real path, the account's home when HOME names another), the system list, and toolplane's
 * own folder (its config.json is the trust record and may hold MCP servers' keys; its sessions,
 * and the MCP OAuth tokens kept there).
 */
export function credentialStores(homes: readonly string[], toolplaneHome: string): string[] {
  const out = new Set<string>();
  for (const home of homes) {
    if (home === "" || home === "/" || !path.isAbsolute(home)) continue;
    for (const h of new Set([home, realpathOfLongestPrefix(home)]))
      for (const rel of HOME_CREDENTIALS) out.add(path.join(h, rel));
  }
  for (const p of SYSTEM_CREDENTIALS) out.add(p);
  out.add(toolplaneHome);
  return [...out];
}

/**
 * The credential stores that lie strictly below a shown folder, as they exist now (a store that
 * does not exist cannot be shown, and bwrap would make it on the host to cover it). A store the
 * user showed itself (a shown path is the store) is left. Stores and shown folders
 * are compared by real path, so a folder shown through a symlink still hides what lies below its
 * target, and a symlinked store is hidden where it points. Cost: a string check per store and
 * shown path, and an lstat (a readdir per `*`) only for a store below one.
 */
export function hiddenCredentials(stores: readonly string[], shown: readonly string[]): HiddenPath[] {
  const out = new Map<string, HiddenPath>();
  const shownReal = shown.map((s) => ({ at: s, real: realpathOfLongestPrefix(s) }));
  for (const pattern of stores) {
    if (!shownReal.some((s) => couldHold(s.at, pattern) || couldHold(s.real, pattern))) continue;
    for (const store of expand(pattern)) {
      const real = realpathOfLongestPrefix(store);
      let dir: boolean;
      try {
        dir = lstatSync(real).isDirectory();
      } catch {
        continue; // absent, or a dangling symlink: nothing to show
      }
      // the user named the store itself; a path named inside it is mounted again over the hiding
      if (shownReal.some((s) => s.real === real)) continue;
      for (const s of shownReal) {
        // where the store appears inside the sandbox: below the shown path as it is mounted
        if (strictlyBelow(real, s.real)) {
          const at = path.join(s.at, path.relative(s.real, real));
          out.set(at, { path: at, dir });
        }
      }
    }
  }
  return [...out.values()];
}

/** Whether a store pattern may lie below `dir` (its fixed prefix is below it, or above the `*`). */
function couldHold(dir: string, pattern: string): boolean {
  const star = pattern.indexOf("*");
  const fixed = star < 0 ? pattern : path.dirname(pattern.slice(0, star + 1));
  return strictlyBelow(fixed, dir) || (star >= 0 && within(dir, fixed));
}

/** The paths a pattern names now: each `*` one directory's entries (one readdir per star). */
function expand(pattern: string): string[] {
  if (!pattern.includes("*")) return [pattern];
  const parts = pattern.split("/");
  let current = [parts[0] === "" ? "/" : parts[0]!];
  for (const part of parts.slice(1)) {
    if (part === "") continue;
    const next: string[] = [];
    for (const dir of current) {
      if (!part.includes("*")) {
        next.push(path.join(dir, part));
        continue;
      }
      const re = new RegExp(`^${part.split("*").map(escapeRegExp).join("[^/]*")}$`);
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const n of names) if (re.test(n)) next.push(path.join(dir, n));
    }
    current = next;
  }
  return current;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `p` is `dir` or below it. */
export function within(p: string, dir: string): boolean {
  return p === dir || strictlyBelow(p, dir);
}

/** `p` is below `dir`, not `dir` itself. */
export function strictlyBelow(p: string, dir: string): boolean {
  if (dir === "/") return p !== "/" && p.startsWith("/");
  return p.length > dir.length && p.startsWith(dir) && p[dir.length] === "/";
}
