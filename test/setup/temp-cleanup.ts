// Runs in each test file: after its last hook (after-hooks run in reverse, and this one is
// registered first), the temp dirs it made through test/helpers/tmp.ts are removed.
import { afterAll } from "vitest";
import { removeTempDirs } from "../helpers/tmp.js";

afterAll(() => removeTempDirs());
