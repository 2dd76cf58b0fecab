import {
  evaluatePermission,
  type PermissionPolicy,
  type PermissionRequest,
  type RequestPath,
} from "../src/permissions/index.js";
import { emit, type Figure, median, peakRssMiB, round, timeRuns } from "./lib.js";

// A permission rule with several stars against a value that nearly matches it: the case that
// blocked the host for 56 s with a backtracking matcher. The figures: the cost at 12,000 and
// 120,000 characters (linear: about 10x apart), and the old regex matcher's growth on short
// values in the same run (it is too slow to run at 12,000).
const REPS = Number(process.env.BENCH_REPS ?? 9);

const base = {
  defaultEffect: "allow",
  workspaceBoundary: false,
  askFiles: [],
  caseInsensitive: false,
} as const;
const textPolicy: PermissionPolicy = {
  ...base,
  rules: [
    { rule: { effect: "deny", pattern: "*a*b*c*" }, origin: "pattern rule" },
    { rule: { effect: "deny", param: { pointer: "/text", glob: "*a*b*c*d*" } }, origin: "param rule" },
  ],
};
const pathPolicy: PermissionPolicy = {
  ...base,
  rules: [{ rule: { effect: "deny", path: "**/*a*b*c*" }, origin: "path rule" }],
};

function textRequest(chars: number): PermissionRequest {
  const value = "ab".repeat(chars / 2);
  return { tool: "t", namespace: "bench", patterns: [value], paths: [], args: { text: value } };
}

function pathRequest(chars: number): PermissionRequest {
  const p = "ab".repeat(chars / 2);
  const path: RequestPath = {
    input: p,
    lexical: `/${p}`,
    real: `/${p}`,
    relative: p,
    lexicalRelative: p,
    inside: true,
  };
  return { tool: "t", namespace: "bench", patterns: [], paths: [path], args: {} };
}

/** The matcher this replaced: one `[\s\S]*` per star, backtracking. */
function oldGlob(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .split("*")
      .map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
      .join("[\\s\\S]*")}$`,
    "u",
  );
}

async function main(): Promise<void> {
  const figures: Figure[] = [];
  const at = async (req: PermissionRequest, policy: PermissionPolicy) => {
    const times = await timeRuns(() => {
      if (evaluatePermission(req, policy).effect !== "allow") throw new Error("the rules must not match");
    }, REPS);
    return median(times);
  };
  const small = await at(textRequest(12_000), textPolicy);
  const large = await at(textRequest(120_000), textPolicy);
  figures.push(
    {
      name: "pattern and parameter rules (*a*b*c*), 12,000-char value",
      value: round(small),
      unit: "ms",
      goal: "< 5 ms",
      ok: small < 5,
    },
    { name: "same at 120,000 chars", value: round(large), unit: "ms" },
    {
      name: "growth 12,000 -> 120,000 chars",
      value: round(large / small, 2),
      unit: "x",
      goal: "linear: <= 15x for 10x the length",
      ok: large / small <= 15,
    },
  );
  const p1 = await at(pathRequest(2_000), pathPolicy);
  const p2 = await at(pathRequest(4_000), pathPolicy);
  figures.push(
    { name: "path rule (**/*a*b*c*), 2,000-char path", value: round(p1), unit: "ms" },
    {
      name: "path rule, 4,000-char path (the path cap is 4,096)",
      value: round(p2),
      unit: "ms",
      goal: "< 10 ms",
      ok: p2 < 10,
    },
    {
      name: "path growth for 2x the length",
      value: round(p2 / p1, 2),
      unit: "x",
      goal: "linear: <= 3x",
      ok: p2 / p1 <= 3,
    },
  );
  const re = oldGlob("*a*b*c*");
  const old = async (chars: number) => median(await timeRuns(() => re.test("ab".repeat(chars / 2)), REPS));
  const o1 = await old(400);
  const o2 = await old(800);
  figures.push(
    { name: "baseline: old regex matcher, 400-char value", value: round(o1), unit: "ms" },
    { name: "baseline: old regex matcher, 800-char value", value: round(o2), unit: "ms" },
    {
      name: "baseline growth for 2x the length",
      value: round(o2 / o1, 2),
      unit: "x",
      note: "cubic for three stars: about 8x",
    },
    { name: "peak RSS", value: round(peakRssMiB(), 1), unit: "MiB" },
  );
  emit({ bench: "permissions", figures });
}

await main();
