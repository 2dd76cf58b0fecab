// vitest globalSetup: a folder for this run's packed tarball and the consumer projects installed
// from it (test/helpers/packed.ts), which the test files share; removed after the run. Nothing is
// packed here: a run without a package test packs nothing.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

export default function setup(project: TestProject): () => void {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "toolplane-pack-run-")));
  project.provide("packRun", dir);
  return () => rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
}
