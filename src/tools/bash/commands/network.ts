import { has, parseOptions, valuesOf } from "../options.js";
import { dynamicWord, type Handler } from "./site.js";

export const curl: Handler = (s) => {
  const p = parseOptions(s.args, {
    short: "oDcdHXuAeFTxwmbrKEyYzCQtUP",
    long: [
      "output",
      "dump-header",
      "cookie-jar",
      "data",
      "data-raw",
      "data-binary",
      "data-urlencode",
      "header",
      "request",
      "user",
      "user-agent",
      "referer",
      "form",
      "upload-file",
      "proxy",
      "write-out",
      "max-time",
      "cookie",
      "range",
      "config",
      "cert",
      "key",
      "output-dir",
      "connect-timeout",
      "retry",
      "url",
      "json",
      "trace",
      "trace-ascii",
      "stderr",
      "etag-save",
      "hsts",
      "alt-svc",
    ],
  });
  const dir = valuesOf(p, "--output-dir");
  const base = dir.length > 0 && dir[0] !== "\0" ? dir[0] : undefined;
  for (const o of valuesOf(
    p,
    "-o",
    "--output",
    "-D",
    "--dump-header",
    "-c",
    "--cookie-jar",
    "--trace",
    "--trace-ascii",
    "--stderr",
    "--etag-save",
  )) {
    if (o === "-") continue;
    s.write(o === "\0" ? dynamicWord(o) : o, base !== undefined ? { base } : {});
  }
  if (has(p, "-O", "--remote-name", "--remote-name-all", "-J")) s.write(dir.length > 0 ? dir[0]! : ".");
};

export const wget: Handler = (s) => {
  const p = parseOptions(s.args, {
    short: "OPoaeiTtwUYQDAIXRlB",
    long: [
      "output-document",
      "directory-prefix",
      "output-file",
      "append-output",
      "input-file",
      "timeout",
      "tries",
      "wait",
      "user-agent",
      "user",
      "password",
      "header",
      "post-data",
      "post-file",
      "load-cookies",
      "save-cookies",
      "accept",
      "reject",
      "level",
      "domains",
      "base",
    ],
  });
  if (has(p, "--spider")) return;
  const doc = valuesOf(p, "-O", "--output-document");
  for (const o of [
    ...doc,
    ...valuesOf(p, "-o", "--output-file", "-a", "--append-output", "--save-cookies"),
  ]) {
    if (o !== "-") s.write(o === "\0" ? dynamicWord(o) : o);
  }
  if (doc.length === 0) {
    const prefix = valuesOf(p, "-P", "--directory-prefix");
    s.write(prefix.length > 0 ? prefix[0]! : ".", { subtree: has(p, "-r", "--recursive", "-m", "--mirror") });
  }
};
