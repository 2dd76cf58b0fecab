import type { Word } from "../words.js";

/** What a command handler may report about one simple command (see subset.ts). */
export interface Site {
  /** The command's name without its folder (`/bin/rm` -> `rm`). */
  name: string;
  args: Word[];
  /** Writes a file or folder: a word of the command, or a path the handler made. */
  write(
    target: Word | string,
    opts?: { subtree?: boolean; base?: string | undefined; ancestors?: boolean },
  ): void;
  /** Reads a file or folder (the read tool's checks apply to it): a word, or a path the handler made. */
  read(
    target: Word | string,
    opts?: {
      subtree?: boolean;
      base?: string | undefined;
      contents?: boolean;
      follows?: boolean;
      visible?: boolean;
    },
  ): void;
  /** The command does something the classifier does not model: the call must ask, naming it. */
  ask(reason: string): void;
  /** Another command this one runs (xargs, find -exec, sudo): checked and classified on its own. */
  run(words: Word[], how?: { stdinArgs?: boolean; replace?: string; placeholderRoots?: Word[] }): void;
  /** A script given as a string (`bash -c '...'`): parsed and classified like the command line. */
  script(text: Word): void;
  /** The command is in the default read-only set in this form (it runs with no rule). */
  readOnly(form: string): void;
  /**
   * git runs in `dir` (relative to where the command runs): the repository found there decides
   * whether it stays read-only (git-repos.ts). `contents`: it prints tracked files' contents, of
   * those the pathspecs name (none: all).
   */
  repository(dir: string, how: { contents: boolean; pathspecs: string[] }): void;
}

export type Handler = (site: Site) => void;

/** A literal word, for handlers that must name a path the command does not spell out. */
export function literal(value: string): Word {
  return {
    raw: value,
    value,
    glob: false,
    node: { type: "word", field: undefined, named: true, start: 0, end: 0, broken: false, children: [] },
  };
}

export const each = (site: Site, words: Word[], subtree = false) => {
  for (const w of words) site.write(w, { subtree });
};

export function dynamicWord(raw: string): Word {
  return { ...literal(raw === "\0" ? "<value known only when it runs>" : raw), value: undefined };
}

/** A directory word joined onto a base ("." relative); undefined when either is unknown. */
export function joinDir(base: string, word: Word): string | undefined {
  const v = word.value;
  if (v === undefined || word.glob) return undefined;
  if (v.startsWith("/")) return v;
  return base === "." ? v : `${base}/${v}`;
}
