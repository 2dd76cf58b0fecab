// Secrets planted where a sandboxed command must not reach them: a fake home folder with an SSH
// key, AWS credentials and a plain file, and a folder elsewhere on the disk. Both lie below the
// real home folder, not under /tmp: every bwrap sandbox has a private /tmp, so a secret there
// would be out of sight for that reason alone (the old sandbox, which showed the whole disk, hid
// it too, and a test of it could not fail).
import { chmodSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { tempDir, writeTree } from "./tmp.js";

export const SECRET = {
  ssh: "SSH-PRIVATE-KEY-sekrit",
  aws: "AWS-SECRET-sekrit",
  homeFile: "HOME-NOTES-sekrit",
  outside: "OUTSIDE-FILE-sekrit",
  dotenv: "DOTENV-sekrit",
  npmrc: "NVM-NPMRC-TOKEN-sekrit",
} as const;

export function plantSecrets() {
  const home = tempDir(".tp-home-", homedir());
  writeTree(home, {
    ".ssh/id_rsa": SECRET.ssh,
    ".aws/credentials": SECRET.aws,
    "notes.txt": SECRET.homeFile,
    // a toolchain in the default list, with a credential store below it (nvm's global npmrc)
    ".nvm/versions/node/v0/bin/tp-toolchain-probe": "#!/bin/sh\necho toolchain-ran\n",
    ".nvm/versions/node/v0/etc/npmrc": SECRET.npmrc,
  });
  const outside = tempDir(".tp-outside-", homedir());
  writeTree(outside, { "secret.txt": SECRET.outside });
  const paths = {
    ssh: path.join(home, ".ssh/id_rsa"),
    aws: path.join(home, ".aws/credentials"),
    homeFile: path.join(home, "notes.txt"),
    outside: path.join(outside, "secret.txt"),
    npmrc: path.join(home, ".nvm/versions/node/v0/etc/npmrc"),
    probe: path.join(home, ".nvm/versions/node/v0/bin/tp-toolchain-probe"),
  };
  chmodSync(paths.probe, 0o755);
  return { home, outside, paths };
}

/** A node one-liner that prints each path's contents, or why it could not (the opaque program). */
export function nodeReads(paths: readonly string[]): string {
  const code = `for (const p of ${JSON.stringify(paths)}) { try { console.log(p, 'READ', require('fs').readFileSync(p, 'utf8')) } catch (e) { console.log(p, 'FAILED', e.code) } }`;
  return `node -e ${shellQuote(code)}`;
}

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}
