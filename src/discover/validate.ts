import { parseSkillArguments } from "./arguments.js";
import type { SkillForm } from "./types.js";

/** Fields the Agent Skills format defines, plus the host extensions toolplane reads. */
export const SPEC_FIELDS = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];
export const VISIBILITY_FIELDS = ["disable-model-invocation", "user-invocable"];
/** Claude Code extensions: known, kept, never an error. */
export const HOST_FIELDS = [
  ...VISIBILITY_FIELDS,
  "argument-hint",
  "arguments",
  "when_to_use",
  "model",
  "context",
  "agent",
];

export const NAME_MAX = 64;
export const DESCRIPTION_MAX = 1024;
export const COMPATIBILITY_MAX = 500;
const NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** One broken rule. `blocking`: discovery cannot load the skill at all. */
export interface RuleIssue {
  rule: string;
  line: number;
  message: string;
  blocking: boolean;
}

export interface Checked {
  /** The name the skill registers under (falls back to the directory or file name). */
  name: string;
  description: string;
  modelInvocable: boolean;
  userInvocable: boolean;
  issues: RuleIssue[];
}

/**
 * Agent Skills rules over a parsed frontmatter. Every broken rule is listed; discovery loads the
 * skill unless an issue is blocking, `skills validate` fails on any issue.
 */
export function checkFrontmatter(
  data: Record<string, unknown>,
  lines: Record<string, number>,
  expectedName: string,
  form: SkillForm,
): Checked {
  const issues: RuleIssue[] = [];
  const lineOf = (key: string) => lines[key] ?? 1;
  const issue = (rule: string, message: string, blocking = false) =>
    issues.push({ rule, line: lineOf(rule), message, blocking });
  const where = form === "bundle" ? "its directory" : "its file name";

  let name = expectedName;
  const rawName = data.name;
  if (rawName === undefined || rawName === null) {
    issue("name", `is required (add \`name: ${expectedName}\`)`);
  } else if (typeof rawName !== "string" || rawName.trim() === "") {
    issue("name", `must be a non-empty string (found ${describe(rawName)})`);
  } else {
    name = rawName;
    if (rawName.length > NAME_MAX)
      issue("name", `is ${rawName.length} characters, over the ${NAME_MAX} limit`);
    if (!NAME_PATTERN.test(rawName)) {
      issue(
        "name",
        `"${rawName}" may use only lowercase letters, digits and single hyphens, not at the start or end`,
      );
    }
    if (rawName !== expectedName) {
      issue("name", `"${rawName}" does not match ${where} "${expectedName}" (rename one so they agree)`);
    }
  }

  let description = "";
  const rawDescription = data.description;
  if (rawDescription === undefined || rawDescription === null) {
    issue("description", "is required: say what the skill does and when to use it", true);
  } else if (typeof rawDescription !== "string" || rawDescription.trim() === "") {
    issue("description", `must be a non-empty string (found ${describe(rawDescription)})`, true);
  } else {
    description = rawDescription;
    if (rawDescription.length > DESCRIPTION_MAX) {
      issue(
        "description",
        `is ${rawDescription.length.toLocaleString("en-US")} characters, over the ${DESCRIPTION_MAX.toLocaleString("en-US")} limit (the catalog caps it)`,
      );
    }
  }

  if (data.license !== undefined && typeof data.license !== "string") {
    issue("license", `must be a string (found ${describe(data.license)})`);
  }
  if (data.compatibility !== undefined) {
    if (typeof data.compatibility !== "string" || data.compatibility.trim() === "") {
      issue("compatibility", `must be a non-empty string (found ${describe(data.compatibility)})`);
    } else if (data.compatibility.length > COMPATIBILITY_MAX) {
      issue(
        "compatibility",
        `is ${data.compatibility.length} characters, over the ${COMPATIBILITY_MAX} limit`,
      );
    }
  }
  if (data.metadata !== undefined) {
    const m = data.metadata;
    const ok =
      m !== null &&
      typeof m === "object" &&
      !Array.isArray(m) &&
      Object.values(m).every((v) => typeof v === "string");
    if (!ok) issue("metadata", "must be a mapping of string keys to string values");
  }
  const tools = data["allowed-tools"];
  if (
    tools !== undefined &&
    typeof tools !== "string" &&
    !(Array.isArray(tools) && tools.every((t) => typeof t === "string"))
  ) {
    issue("allowed-tools", "must be a space-separated string (or a list) of tool names");
  }

  const args = parseSkillArguments(data.arguments);
  if (!args.ok) issue("arguments", `${args.error}; the skill takes free text instead until fixed`);

  const model = parseFlag(data["disable-model-invocation"]);
  const user = parseFlag(data["user-invocable"]);
  if (model === "invalid") {
    issue(
      "disable-model-invocation",
      `must be true or false (or yes/no), found ${describe(data["disable-model-invocation"])}; the skill is hidden from the model until fixed`,
    );
  }
  if (user === "invalid") {
    issue(
      "user-invocable",
      `must be true or false (or yes/no), found ${describe(data["user-invocable"])}; the skill is hidden until fixed`,
    );
  }
  // Fail closed: a flag we cannot read hides the skill from the model.
  const modelInvocable = model === undefined ? true : model === "invalid" ? false : !model;
  const userInvocable = user === undefined ? true : user === "invalid" ? false : user;
  const fullyValid = model !== "invalid" && user !== "invalid";

  for (const key of Object.keys(data)) {
    if (!SPEC_FIELDS.includes(key) && !HOST_FIELDS.includes(key)) {
      issues.push({
        rule: "unknown-field",
        line: lineOf(key),
        message: `"${key}" is not an Agent Skills field (kept; allowed: ${[...SPEC_FIELDS, ...HOST_FIELDS].join(", ")})`,
        blocking: false,
      });
    }
  }
  issues.sort((a, b) => a.line - b.line);
  return {
    name,
    description,
    modelInvocable: fullyValid ? modelInvocable : false,
    userInvocable,
    issues,
  };
}

/** Booleans, or the strings true/false/yes/no in any case; anything else is "invalid". */
export function parseFlag(value: unknown): boolean | undefined | "invalid" {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "boolean") return value;
  if (typeof value === "string") {
    const v = value.trim().toLowerCase();
    if (v === "true" || v === "yes") return true;
    if (v === "false" || v === "no") return false;
  }
  return "invalid";
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "object") return "a mapping";
  return `${typeof value} ${String(value)}`;
}
