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

/**
 * A tool's own refusal of arguments its schema accepts (a limit the schema cannot say, such as a
 * size in bytes). Thrown from `permission.needs` or `execute`, it reaches the model as
 * `invalid_arguments` with this message, before anything is asked when thrown from `needs`.
 */
export class ArgumentsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArgumentsError";
  }
}
