import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The package names that hold the optional SDKs in this test project (see vitest.config.ts). */
    peers: { ai: string; agents: string; langchain: string; claude: string };
  }
}

/** The SDK packages this test project's adapter tests run against (lowest or newest supported). */
export function peerPackages(): { ai: string; agents: string; langchain: string; claude: string } {
  return inject("peers");
}
