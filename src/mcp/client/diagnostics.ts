/** What a server said besides JSON-RPC: kept short, so a failure message can quote it. */
export class Diagnostics {
  private stderrTail = "";
  private readonly errors: string[] = [];

  constructor(
    private readonly maxStderr = 1000,
    private readonly maxErrors = 3,
  ) {}

  stderr(chunk: string): void {
    this.stderrTail = (this.stderrTail + chunk).slice(-this.maxStderr);
  }

  error(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    // the SDK's own echo of toolplane giving up on a request: not something the server did
    if (message.startsWith("Failed to send cancellation")) return;
    if (this.errors.length < this.maxErrors && !this.errors.includes(message)) this.errors.push(message);
  }

  /** " It wrote ... stderr: ..." or "" when the server said nothing else. */
  describe(): string {
    const parts: string[] = [];
    if (this.errors.length > 0) parts.push(`protocol errors: ${this.errors.map(oneLine).join(" | ")}`);
    const tail = oneLine(this.stderrTail);
    if (tail !== "") parts.push(`stderr: ${tail}`);
    return parts.length === 0 ? "" : ` (${parts.join("; ")})`;
  }

  reset(): void {
    this.stderrTail = "";
    this.errors.length = 0;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, 300);
}
