// The parts outside the package some tests need, and the one line `npm test` prints for each one
// that is missing (the tests that need it skip themselves).
import { existsSync } from "node:fs";
import { CONFORMANCE_DIR, CONFORMANCE_INSTALL } from "./conformance.js";
import { findDataDir } from "./data.js";
import { BWRAP, STRACE } from "./strace-differential.js";
import { HAS_SCRIPT } from "./terminal.js";

export const CHROMIUM = "/usr/bin/chromium";
/** Debian's Python, for a hook written in Python as Claude Code's documentation writes them. */
export const PYTHON3 = "/usr/bin/python3";

/** One line per missing part: which tests skip, and what to install or set. */
export function missingParts(): string[] {
  const lines: string[] = [];
  if (findDataDir() === undefined)
    lines.push(
      "tests that read the shared data folder skip: set TOOLPLANE_DATA to that folder (shared/data)",
    );
  if (!existsSync(BWRAP)) lines.push("the bash sandbox tests skip: apt-get install bubblewrap");
  if (!existsSync(STRACE))
    lines.push("the bash classifier's differential test skips: apt-get install strace");
  if (!existsSync(CHROMIUM)) lines.push("the inspector's browser test skips: apt-get install chromium");
  if (!existsSync(`${CONFORMANCE_DIR}/node_modules/@modelcontextprotocol/conformance`))
    lines.push(`the MCP conformance tests skip: ${CONFORMANCE_INSTALL}`);
  if (!existsSync(PYTHON3)) lines.push("the Python hook test fails: apt-get install python3");
  if (!HAS_SCRIPT) lines.push("the terminal tests (y/N approval, colours) skip: apt-get install bsdutils");
  return lines;
}
