// The CLI compiles toolplane's code with a V8 code cache (cli/code-cache.ts), and on Node 20 an
// import() in code that came from a cache has no loader to call ("A dynamic import callback was
// not specified"); the vm option that would give it one is experimental and warns on stderr. So
// the CLI's loader passes its own import() in as `__toolplaneImport`, and every dynamic import of
// a package or a file goes through here. Loaded by Node itself (the library), it is not there and
// the plain import() runs. scripts/bundle.mjs checks that the bundle holds no other import().
declare const __toolplaneImport: ((specifier: string) => Promise<unknown>) | undefined;

/** `import(specifier)`, for a package name, a `node:` builtin or an absolute file URL. */
export function importModule<T>(specifier: string): Promise<T> {
  return (
    typeof __toolplaneImport === "function" ? __toolplaneImport(specifier) : import(specifier)
  ) as Promise<T>;
}
