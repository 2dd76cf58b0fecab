/**
 * What the shell's locale decides for the classifier, read from the environment bash gets
 * (LC_ALL over LC_CTYPE / LC_COLLATE over LANG). Bash decodes `$'\u00e9'` for the character
 * type (under C it writes the escape out as text, under UTF-8 it makes the bytes, under another
 * charset it converts), and sorts a glob's file names for the collation. Only what is known for
 * certain is modelled: anything else asks.
 */
export interface ShellLocale {
  /** `$'\u...'` above ASCII makes UTF-8 bytes: true only for C.UTF-8, which every glibc has built in. */
  utf8: boolean;
  /** A glob's names come in code-point order (C, POSIX, C.UTF-8): where they stand among each other is known. */
  codepointOrder: boolean;
}

export function shellLocale(env: Readonly<Record<string, string | undefined>>): ShellLocale {
  const pick = (category: string) => env.LC_ALL || env[category] || env.LANG || "";
  const ctype = pick("LC_CTYPE");
  const collate = pick("LC_COLLATE");
  return {
    utf8: /^C\.(UTF-8|utf8)$/.test(ctype),
    codepointOrder: collate === "" || /^(C|POSIX|C\.(UTF-8|utf8))$/.test(collate),
  };
}

/** The line sets a locale variable somewhere: what bash decodes after it is not known now. */
export function setsLocale(source: string): boolean {
  return /(^|[^A-Za-z0-9_])(LANG|LC_[A-Z]+)=/.test(source);
}
