// What read returns (its canonical value), apart from the reader and the renderer that both use it.
import type { TextEncoding } from "./sniff.js";

export interface ReadArgs {
  path: string;
  offset?: number | undefined;
  limit?: number | undefined;
}

export interface TextPage {
  kind: "file";
  path: string;
  encoding: TextEncoding;
  offset: number;
  lines: string[];
  /** Line numbers cut at the line limit. */
  cutLines: number[];
  /** Line numbers that ended in CRLF. */
  crlfLines: number[];
  /** On the last page: whether the file ends with a newline. */
  endsWithNewline?: boolean;
  totalLines?: number;
  nextOffset?: number;
}

export interface DirectoryPage {
  kind: "directory";
  path: string;
  offset: number;
  entries: string[];
  totalEntries: number;
  nextOffset?: number;
  /** Only when entries were left out because the permission rules deny them: how many. */
  withheld?: number;
}

export interface MediaValue {
  kind: "media";
  path: string;
  mimeType: string;
  bytes: number;
  /** base64 */
  data: string;
}

export type ReadValue = TextPage | DirectoryPage | MediaValue;
