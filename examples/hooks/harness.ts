import path from "node:path";
import { Toolplane } from "toolplane";

/** A harness's own hooks, as functions: an audit line per call, and writes under docs/ approved without asking. */
export async function main(cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const plane = await Toolplane.open({ cwd, env });
  const audit: string[] = [];
  // every host of the plane runs it, after each call that succeeded
  plane.hooks.on("PostToolUse", (input) => {
    audit.push(`${input.tool_name} ${JSON.stringify(input.tool_input)}`);
  });
  const docs = path.join(plane.config.projectRoot, "docs") + path.sep;
  const host = plane.host({
    hooks: {
      // asked when a call would ask, before the approver (here there is none: the rest is denied)
      PermissionRequest: [
        {
          matcher: "Write",
          hook: (input) =>
            String(input.tool_input.file_path).startsWith(docs)
              ? {
                  hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
                }
              : undefined,
        },
      ],
    },
  });
  const results = await host.run([
    { id: "call_1", tool: "write", args: { path: "docs/notes.md", content: "# Notes\n" } },
    { id: "call_2", tool: "write", args: { path: "src/app.ts", content: "export {};\n" } },
  ]);
  await plane.close();
  return { results, audit };
}
