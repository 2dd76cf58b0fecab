#!/usr/bin/env node
import { run } from "./run.js";

run(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`toolplane: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
