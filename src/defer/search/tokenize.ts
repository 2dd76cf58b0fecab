import { stemmer } from "stemmer";

// A general English stop list (articles, pronouns, auxiliaries, prepositions, request filler).
// Nothing here is taken from any benchmark: these are words that name no tool's job.
const STOP_WORDS = new Set(
  (
    "a an the and or but if then else of to in on at by for with from into onto over under about as " +
    "is are was were be been being am do does did done have has had having can could shall should " +
    "will would may might must i me my mine we us our ours you your yours he him his she her hers it " +
    "its they them their theirs this that these those there here what which who whom whose when " +
    "where why how all any both each every few more most other some such no nor not only own same so " +
    "than too very just also please let lets want wants need needs like s t e g eg ie etc"
  ).split(" "),
);

/**
 * Splits an identifier or text into words: non-alphanumerics, camelCase and PascalCase humps,
 * acronym runs ("HTTPServer" -> http server) and letter/digit boundaries all break a word.
 */
export function splitWords(text: string): string[] {
  const spaced = text
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([A-Za-z])([0-9])/g, "$1 $2")
    .replace(/([0-9])([A-Za-z])/g, "$1 $2")
    .toLowerCase();
  return spaced.split(/[^a-z0-9]+/).filter((w) => w.length > 0);
}

const stemCache = new Map<string, string>();

/** Porter stem of a lowercase word, memoised: the same few thousand words recur in every query. */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = stemmer(word);
    if (stemCache.size < 100_000) stemCache.set(word, s);
  }
  return s;
}

/** Index terms of a text: split, stop words dropped, stemmed. Numbers are kept whole. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of splitWords(text)) {
    if (STOP_WORDS.has(w)) continue;
    out.push(/^[0-9]+$/.test(w) ? w : stem(w));
  }
  return out;
}
