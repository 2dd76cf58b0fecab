import path from "node:path";
import { ArgumentsError, defineTool } from "../../declare/index.js";
import type { OutputStream, RenderedOutput, ToolContext } from "../../declare/types.js";
import { sandboxSupport } from "../sandbox/bwrap.js";
import { removeCreated } from "../sandbox/protect.js";
import { keepShellCwd, resetShellCwd, shellCwd } from "./cwd.js";
import { shellEnvironment } from "./environment.js";
import { pidNamespacePrefix } from "./reap.js";
import { commandTooLong, runShell } from "./run.js";
import { sandboxFor } from "./sandbox-for.js";
import { sandboxPlan } from "./sandbox-plan.js";
import { bashOutput, bashParameters } from "./schema.gen.js";
import type { BashArgs, BashValue } from "./schema.js";

export type { BashArgs, BashValue } from "./schema.js";

export const BASH_DESCRIPTION =
  // Qualitative on purpose: limits and the sandbox setting can change; they never go into a description.
  "Run a shell command with bash and get its output (stdout and stderr together) and exit code. " +
  "The working directory carries over between calls, inside the workspace. Each command and each " +
  "file it writes is checked against the permission rules, and commands may run in a sandbox that " +
  "keeps writes inside the workspace and has no network. Quote paths with spaces. Not for reading, " +
  "searching or changing files: use read, grep, glob, edit and write, which are faster and checked " +
  "more precisely. Background jobs end when the command does.";

/**
 * The command analysis (the parser, the command tables, the path checks): a chunk of 109 KB in the
 * bundle, loaded when a bash call is checked or run, not by every command that lists the tool.
 */
const analysis = () => import("./needs.js");

export function bashTool() {
  return defineTool({
    name: "bash",
    description: BASH_DESCRIPTION,
    parameters: bashParameters,
    output: { schema: bashOutput, render: renderBash },
    execute: (args: BashArgs, ctx: ToolContext) => runBash(args, ctx),
    permission: {
      action: "command",
      patterns: (a) => [a.command],
      needs: async (a, ctx) => {
        // refused before anything is asked: a command that cannot be run is no question to put
        const tooLong = commandTooLong(a.command);
        if (tooLong !== undefined) throw new ArgumentsError(tooLong);
        // an unsandboxed run waits for the PID-namespace probe: started while the call is checked,
        // a constant command (unshare ... /bin/true), harmless whatever the check decides, and
        // before the analysis loads, so that a process's first call waits for the slower of the
        // two, not for both. A sandboxed run never uses it, so it is not spawned then.
        if (!sandboxFor(ctx.config).active) void pidNamespacePrefix();
        const { bashNeeds } = await analysis();
        return bashNeeds(a.command, ctx);
      },
    },
    // a command may do anything the permissions let it, network included
    annotations: {
      title: "Bash",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    display: { title: "Bash", summarize: (a) => a.description ?? a.command },
  });
}

const DIRECT_OUTPUT_MAX = 1024 * 1024;
const READ_ONLY_ERRORS = /Read-only file system|EROFS|Device or resource busy/;

export async function runBash(args: BashArgs, ctx: ToolContext): Promise<BashValue> {
  // the check needs makes, again for a caller that runs the tool without the host
  const tooLong = commandTooLong(args.command);
  if (tooLong !== undefined) throw new ArgumentsError(tooLong);
  const cwd = shellCwd(ctx);
  const sandbox = sandboxFor(ctx.config);
  const extraEnv = (ctx.config["tools.shellEnv"] as string[] | undefined) ?? [];
  const env = shellEnvironment(process.env, extraEnv);
  let plan: Parameters<typeof runShell>[0]["sandbox"];
  let created: string[] = [];
  if (sandbox.active) {
    // a workspace that cannot be checked for ask-first files throws: the host reports it, nothing runs
    const made = await sandboxPlan({
      ctx,
      cwd,
      sandbox,
      gitWrites: async () =>
        (await analysis()).writesInto(args.command, cwd, path.join(ctx.workspace, ".git")),
    });
    created = made.created;
    plan = { binary: sandboxSupport().binary!, plan: made.plan };
  }
  // a direct call (no host) gets its output in the value, bounded
  let direct = "";
  let metReadOnly = false;
  let bytes = 0;
  const sink = ctx.stream;
  const stream: OutputStream = {
    write: (chunk) => {
      bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
      // the error a write into a read-only bind gives (a marker cut across two chunks is missed:
      // the note is a hint, the failure itself is in the output)
      if (
        !metReadOnly &&
        READ_ONLY_ERRORS.test(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("latin1"))
      )
        metReadOnly = true;
      if (sink) return sink.write(chunk);
      if (direct.length < DIRECT_OUTPUT_MAX) direct += Buffer.from(chunk).toString("utf8");
      return Promise.resolve();
    },
  };
  const namespace = plan ? undefined : await pidNamespacePrefix();
  let exit: Awaited<ReturnType<typeof runShell>>;
  try {
    exit = await runShell({
      command: args.command,
      cwd,
      stream,
      signal: ctx.signal,
      env,
      ...(plan ? { sandbox: plan } : {}),
      ...(namespace ? { pidNamespace: namespace } : {}),
    });
  } finally {
    removeCreated(created);
  }
  const value: BashValue = {
    exitCode: exit.exitCode,
    cwd: cwd,
    sandbox: plan ? plan.plan.mode : "off",
    outputBytes: bytes,
  };
  if (metReadOnly && plan?.plan.mode === "read-only") value.readOnly = ["."];
  else if (metReadOnly && plan?.plan.readOnly && plan.plan.readOnly.length > 0)
    value.readOnly = plan.plan.readOnly.map((p) => relativeToWorkspace(p, ctx.workspace));
  if (exit.signal) value.signal = exit.signal;
  let ended = cwd;
  if (exit.cwd !== undefined) {
    if (keepShellCwd(ctx, exit.cwd)) ended = exit.cwd;
    else {
      resetShellCwd(ctx);
      ended = ctx.cwd;
      value.cwdReset = true;
    }
  }
  value.cwd = relativeToWorkspace(ended, ctx.workspace);
  if (!ctx.stream) value.output = direct.slice(0, DIRECT_OUTPUT_MAX);
  return value;
}

function relativeToWorkspace(dir: string, workspace: string): string {
  const rel = path.relative(workspace, dir);
  return rel === "" ? "." : rel.split(path.sep).join("/");
}

/** The trailer after the streamed output: exit status, and where the shell is when that moved. */
export function renderBash(value: BashValue): RenderedOutput {
  const lines: string[] = [];
  if (value.output !== undefined && value.output !== "") lines.push(value.output);
  else if (value.outputBytes === 0) lines.push("(no output)");
  const status =
    value.exitCode !== null ? `exit code ${value.exitCode}` : `killed by ${value.signal ?? "a signal"}`;
  lines.push(`[${status}]`);
  // a failed command under the sandbox may have met the protected paths: say why they are read-only
  if (value.exitCode !== 0 && value.readOnly && value.sandbox === "read-only")
    lines.push(
      "[the command ran in a read-only sandbox (it needed no approval, or tools.sandbox is read-only): only its own /tmp can be written; a command runs with the workspace writable when a rule allows it or the user approves it]",
    );
  else if (value.exitCode !== 0 && value.readOnly && value.readOnly.length > 0)
    lines.push(
      `[the sandbox keeps ${value.readOnly.join(", ")} read-only: what is written there runs outside it later; a permission rule that names the path can allow it]`,
    );
  if (value.cwdReset) {
    lines.push(`[the command left the workspace: the next command starts in ${value.cwd} again]`);
  } else if (value.cwd !== ".") lines.push(`[cwd: ${value.cwd}]`);
  return lines.join("\n");
}
