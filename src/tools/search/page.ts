import { FileToolError } from "../shared/errors.js";

/**
 * Paging shared by grep and glob. Entries are numbered from 0 in the result's fixed order;
 * `offset` skips that many, and a page that stops before the end says where to go on. The same
 * rule as read: `nextOffset` is present only when more follow, and the text says how to continue.
 */
export interface PageRange {
  /** Index of the first entry of the page. */
  offset: number;
  /** Index after the page's last entry (offset + entries the page covers). */
  end: number;
  /** Entries in all. */
  total: number;
}

/** The words that tell the model how to get the next page. */
export function continueHint(tool: string, nextOffset: number): string {
  return `call ${tool} again with the same arguments and offset=${nextOffset}`;
}

/** `first-last of total` for a page that is not the whole result, 1-based as people count. */
export function rangeOf(r: PageRange): string {
  const span = r.end > r.offset + 1 ? `${r.offset + 1}-${r.end}` : `${r.offset + 1}`;
  return `${span} of ${r.total}`;
}

/** `1 file`, `2 files`. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** An offset at or past the end of a non-empty result: an error that gives the size. */
export function pastEnd(offset: number, total: number, what: string): FileToolError {
  return new FileToolError(
    `offset ${offset} is past the end: the search found ${total} ${what} (offsets 0-${total - 1})`,
  );
}

/** The page size a call asked for: head_limit, or the most a page holds when 0 or absent. */
export function pageLimit(headLimit: number | undefined, most: number): number {
  return headLimit === undefined || headLimit === 0 ? most : Math.min(headLimit, most);
}
