/** What the classifier finds in a command line: plain data, the input of the policy (needs.ts). */

/** One simple command of a command line, as the permission rules see it. */
export interface CommandUse {
  /** The command as written, quotes removed (`git status --short`); for a command run by path, also by name. */
  patterns: string[];
  /**
   * Set when the command is in the default read-only set, in a form that cannot write or run
   * anything: it runs with no rule (a deny or ask rule still applies). The text says which form.
   */
  readOnly?: string;
  /** git: where it runs (as PathUse.path), and whether it prints tracked contents, of which pathspecs. */
  git?: { dir: string; contents: boolean; pathspecs: string[] };
}

/** A file or folder a command line writes or reads. */
export interface PathUse {
  /** Relative to the directory the line starts in ("/"-separated, `..` kept as written), or absolute. */
  path: string;
  /** Everything below the path too (`rm -r`, `grep -r`, a git checkout). */
  subtree: boolean;
  /** The path is a glob the shell expands to file names. */
  glob: boolean;
  /** Every folder above the path that does not exist yet is made too (`mkdir -p`). */
  ancestors?: boolean;
  /** A recursive read that opens every file's contents below it, hidden ones included (grep -r). */
  contents?: boolean;
  /** The recursive read follows symlinks below it (grep -R, rg -L): one that leads outside the workspace asks. */
  follows?: boolean;
  /** The recursive read opens the contents of files with no hidden name in their path (rg), and of hidden ones an ignore file's `!` lets in. */
  visible?: boolean;
  /** The command (or redirection) that uses it. */
  via: string;
}

/** Something outside the modelled subset: the call must ask, naming the construct. */
export interface AskUse {
  reason: string;
  text: string;
}

export interface ShellAnalysis {
  commands: CommandUse[];
  writes: PathUse[];
  reads: PathUse[];
  asks: AskUse[];
}

/** Same line, same result: duplicates dropped, first occurrence kept. */
export function dedupe(a: ShellAnalysis): ShellAnalysis {
  const seen = new Set<string>();
  const keep = <T>(xs: T[], key: (x: T) => string) =>
    xs.filter((x) => {
      const k = key(x);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  return {
    commands: keep(
      a.commands,
      (c) =>
        `c\0${c.patterns.join("\0")}\0${c.readOnly ?? ""}\0${c.git === undefined ? "" : JSON.stringify(c.git)}`,
    ),
    writes: keep(a.writes, (w) => `w\0${w.path}\0${w.subtree}`),
    reads: keep(a.reads, (r) => `r\0${r.path}\0${r.subtree}\0${r.contents}\0${r.follows}\0${r.visible}`),
    asks: keep(a.asks, (x) => `a\0${x.reason}\0${x.text}`),
  };
}
