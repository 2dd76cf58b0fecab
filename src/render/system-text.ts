import { hash } from "node:crypto";
import type { LineMemo, SystemMemo } from "./memo.js";
import { DEFERRED_HEADER, SKILLS_HEADER } from "./system.js";

// digests are 32-character latin1 strings: one byte per character, no Buffer per digest
const LINE_DIGEST = {
  skills: hash("sha256", SKILLS_HEADER, "binary"),
  deferred: hash("sha256", DEFERRED_HEADER, "binary"),
  blank: hash("sha256", "", "binary"),
};

/** The system text and its digest (over the line digests) from the skill lines and deferred names. */
export function systemText(skillLines: readonly LineMemo[], deferredNames: string | undefined): SystemMemo {
  const lines: string[] = [];
  let lineDigests = "";
  if (skillLines.length > 0) {
    lines.push(SKILLS_HEADER);
    lineDigests += LINE_DIGEST.skills;
    for (const line of skillLines) {
      lines.push(line.text);
      lineDigests += line.digest;
    }
  }
  if (deferredNames !== undefined) {
    if (lines.length > 0) {
      lines.push("");
      lineDigests += LINE_DIGEST.blank;
    }
    lines.push(DEFERRED_HEADER, deferredNames);
    lineDigests += LINE_DIGEST.deferred + hash("sha256", deferredNames, "binary");
  }
  return {
    lines: skillLines,
    deferredNames,
    text: lines.join("\n"),
    digest: hash("sha256", Buffer.from(lineDigests, "latin1"), "binary"),
  };
}
