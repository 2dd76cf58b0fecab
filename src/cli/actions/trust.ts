import { statSync } from "node:fs";
import path from "node:path";
import { projectTrustOf, recordTrust } from "../../config/index.js";
import { findProjectRoot, toolplaneHome } from "../../util/paths.js";
import { type CommonOptions, printJson, say, UsageError } from "../common.js";

interface TrustOptions extends CommonOptions {
  revoke?: boolean;
}

/** `toolplane trust`: its options and help are in commands/trust.ts, loaded without this module. */
export const action = (dir: string | undefined, opts: TrustOptions) => {
  const target = path.resolve(opts.cwd ?? process.cwd(), dir ?? ".");
  let isDir = false;
  try {
    isDir = statSync(target).isDirectory();
  } catch {
    throw new UsageError(`${target} does not exist: give a folder of the project to trust`);
  }
  if (!isDir) throw new UsageError(`${target} is not a folder: give a folder of the project to trust`);
  const root = findProjectRoot(target);
  const change = recordTrust(toolplaneHome(process.env), root, !opts.revoke);
  const now = projectTrustOf({ cwd: root, set: opts.set ?? [] });
  if (opts.json)
    printJson({
      project: change.project,
      trusted: now.trusted,
      file: change.file,
      changed: change.changed,
    });
  else if (!opts.revoke) {
    const verb = change.changed ? "trusted" : "already trusted";
    process.stdout.write(
      `${verb}: ${change.project}\n  its .toolplane/config.json now applies in full: tools.modules, MCP servers with a command, and looser permissions\n  recorded in ${change.file} (trust.projects); \`toolplane trust --revoke\` takes it back\n`,
    );
  } else {
    const verb = change.changed ? "no longer trusted" : "was not trusted";
    process.stdout.write(
      `${verb}: ${change.project}\n  its .toolplane/config.json applies only where it tightens permissions\n  ${change.changed ? "removed from" : "not listed in"} ${change.file} (trust.projects)\n`,
    );
  }
  if (opts.revoke && now.trusted) say(`toolplane: ${change.project} is still trusted through ${now.source}`);
};
