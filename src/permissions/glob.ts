import picomatch from "picomatch";

/**
 * Globs over strings that are not paths (command lines, URLs, enum-like values): `*` matches any
 * run of characters including "/", `?` one character. picomatch would stop `*` at "/", so a deny
 * rule "git push *" would miss "git push origin/main"; hand-written because it is that small.
 */
export function textGlob(glob: string): RegExp {
  let source = "";
  for (const ch of glob) {
    if (ch === "*") source += "[\\s\\S]*";
    else if (ch === "?") source += "[\\s\\S]";
    else source += ch.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "u");
}

const pathMatchers = new Map<string, (p: string) => boolean>();

/** A path glob (picomatch, dotfiles included); `nocase` for rules that must fail closed. */
export function pathGlob(glob: string, nocase: boolean): (p: string) => boolean {
  const key = `${nocase ? "i" : "c"}:${glob}`;
  let matcher = pathMatchers.get(key);
  if (!matcher) {
    matcher = picomatch(glob.normalize("NFC"), { dot: true, nocase });
    pathMatchers.set(key, matcher);
  }
  return matcher;
}

/** Tool names and namespaces: picomatch without path semantics surprises (names hold no "/"). */
export function nameGlob(glob: string): (name: string) => boolean {
  const re = textGlob(glob);
  return (name) => re.test(name);
}
