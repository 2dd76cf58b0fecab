/** The CLI's version (package.json's; test/cli/usage.test.ts keeps them equal). */
export const VERSION = "0.1.0";
