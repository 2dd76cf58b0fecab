/**
 * The time the check of one command line may take. A line is untrusted input: a crafted glob,
 * brace range or folder the check must walk could make it run for minutes, and a check that
 * has not finished has decided nothing. Past the budget the check stops and the call asks.
 * The clock is injected, so a test can run the budget out without depending on the machine.
 */
export class CheckBudget {
  private deadline: number;
  private ticks = 0;

  constructor(
    readonly limitMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.deadline = now() + limitMs;
  }

  /** Counts one step of work; reads the clock every `every` steps and throws once the budget is spent. */
  tick(every = 64): void {
    if (++this.ticks % every === 0) this.check();
  }

  /** Throws BudgetSpent when the deadline has passed. */
  check(): void {
    if (this.now() > this.deadline) throw new BudgetSpent(this.limitMs);
  }

  /** True once the deadline has passed (for work that polls rather than throws: the parse). */
  spent(): boolean {
    return this.now() > this.deadline;
  }

  /** Milliseconds left (0 when spent). */
  remaining(): number {
    return Math.max(0, this.deadline - this.now());
  }

  /** Runs work whose time is not the line's (git reading a repository has its own bound): the deadline moves by it. */
  excluding<T>(work: () => T): T {
    const start = this.now();
    try {
      return work();
    } finally {
      this.deadline += this.now() - start;
    }
  }
}

/** Thrown out of the check when its budget is spent: the caller turns it into one ask. */
export class BudgetSpent extends Error {
  constructor(readonly limitMs: number) {
    super(`the check of this command line took longer than its budget of ${limitMs} ms`);
    this.name = "BudgetSpent";
  }
}

/** How long the check of one line may take (issue 41: any line under 128 KiB in under a second). */
export const CHECK_BUDGET_MS = 800;

/** A budget that never runs out (tests and helpers that classify without one). */
export const UNLIMITED: CheckBudget = new CheckBudget(Number.POSITIVE_INFINITY, () => 0);
