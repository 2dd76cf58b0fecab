/** A tool declaration that breaks a rule; thrown by defineTool, naming the tool and the rule. */
export class DeclarationError extends Error {
  constructor(
    readonly tool: string,
    readonly rule: string,
    detail: string,
  ) {
    super(`tool "${tool}": ${rule}: ${detail}`);
    this.name = "DeclarationError";
  }
}
