// vitest globalSetup: before any test runs, say once which parts outside the package are missing
// and what to do, since a skipped test's own title is not printed when its file passes.
import { missingParts } from "../helpers/system-parts.js";

export default function setup(): void {
  for (const line of missingParts()) process.stderr.write(`toolplane tests: ${line}\n`);
}
