import { has, parseOptions, strictOptions } from "../options.js";
import { each, type Handler } from "./site.js";

const SED = {
  flags: "nErsuzi",
  valued: "efl",
  long: [
    "quiet",
    "silent",
    "regexp-extended",
    "separate",
    "unbuffered",
    "null-data",
    "posix",
    "debug",
    "sandbox",
    "follow-symlinks",
    "help",
    "version",
  ],
  longValued: ["expression", "file", "line-length"],
  longOptional: ["in-place"],
};

/**
 * sed: `-i` writes its files; a script is modelled only when it is made of commands that print,
 * delete, substitute or quit. `w`, `W`, `r`, `R`, `e`, the `w`/`e` flags of `s`, and anything
 * the check does not recognise ask: they write files, read others or run programs.
 */
export const sed: Handler = (s) => {
  // -i takes an attached suffix only (-i.bak): strictOptions would read it as flags
  const args = s.args.map((a) =>
    a.value !== undefined && /^-[a-zA-Z]*i./.test(a.value) && !a.value.startsWith("--")
      ? { ...a, value: a.value.replace(/i.*$/, "i") }
      : a,
  );
  const p = strictOptions(args, SED);
  if (p.unknown.length > 0)
    return s.ask(`sed with ${p.unknown.join(" ")}: an option the classifier does not know`);
  if (has(p, "-f", "--file")) return s.ask("sed -f runs a script file the classifier does not see");
  const given = [...(p.options.get("-e") ?? []), ...(p.options.get("--expression") ?? [])];
  const scripts =
    given.length > 0 ? given : p.operands[0]?.value !== undefined ? [p.operands[0].value] : undefined;
  if (scripts === undefined || scripts.includes("\0"))
    return s.ask("sed runs a script only known when it runs");
  const bad = scripts.map(unsafeSedScript).find((x) => x !== undefined);
  if (bad !== undefined) return s.ask(`sed script ${bad}`);
  const files = given.length > 0 ? p.operands : p.operands.slice(1);
  if (has(p, "-i", "--in-place")) return each(s, files);
  for (const f of files) if (f.value !== "-") s.read(f);
  s.readOnly("sed without -i and a script that only prints, deletes or substitutes");
};

/** Why a sed script is outside the modelled forms, or undefined when it only prints, deletes, substitutes or quits. */
export function unsafeSedScript(script: string): string | undefined {
  let i = 0;
  const n = script.length;
  const skipSpace = () => {
    while (i < n && /[\s;]/.test(script[i]!)) i++;
  };
  /** Skips a delimited part (`/re/`, or the two halves of s); false when it does not close. */
  const delimited = (delim: string): boolean => {
    for (; i < n; i++) {
      const c = script[i]!;
      if (c === "\\") {
        i++;
        continue;
      }
      if (c === "\n") return false;
      if (c === delim) {
        i++;
        return true;
      }
    }
    return false;
  };
  const address = (): boolean => {
    if (/[\d$]/.test(script[i] ?? "")) {
      while (i < n && /[\d$~+]/.test(script[i]!)) i++;
      return true;
    }
    if (script[i] === "/") {
      i++;
      if (!delimited("/")) return false;
      while (/[IM]/.test(script[i] ?? "")) i++;
      return true;
    }
    return true;
  };
  skipSpace();
  while (i < n) {
    if (!address()) return "with an unclosed address";
    if (script[i] === ",") {
      i++;
      if (!address()) return "with an unclosed address";
    }
    while (script[i] === " " || script[i] === "!") i++;
    const cmd = script[i];
    if (cmd === undefined) return "with an address and no command";
    i++;
    if ("pdqQ=lnNPDgGhHxz{}".includes(cmd)) {
      if ((cmd === "q" || cmd === "Q" || cmd === "l") && /\d/.test(script[i] ?? ""))
        while (/\d/.test(script[i] ?? "")) i++;
    } else if (cmd === "s" || cmd === "y") {
      const delim = script[i];
      if (delim === undefined || delim === "\\" || delim === "\n") return `with an unusual ${cmd} delimiter`;
      i++;
      if (!delimited(delim) || !delimited(delim)) return `with an unclosed ${cmd} command`;
      if (cmd === "s") {
        const flags = /^[gpiImM0-9]*/.exec(script.slice(i))![0];
        i += flags.length;
      }
    } else {
      return `command '${cmd}' (w, W, r, R and e write files, read others or run programs; others are not modelled)`;
    }
    const rest = /^[ \t]*(;|\n|}|$)/.exec(script.slice(i));
    if (rest === null) return `with '${script[i]}' after a command`;
    skipSpace();
  }
  return undefined;
}

export const perl: Handler = (s) => {
  // perl is a program like any other (a rule decides it); -i is what it writes
  const p = parseOptions(s.args, { short: "eEIMmlx0", long: [], attached: "i" });
  if (!has(p, "-i")) return;
  const scripted = has(p, "-e", "-E");
  each(s, scripted ? p.operands : p.operands.slice(1));
};
