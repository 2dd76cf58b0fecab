/** Where progress goes: a stream that may be a terminal. */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** A live "label 3/10" line for people; a no-op when its stream is not a terminal. */
export interface Progress {
  /** `done` of `total` units finished; `note` names what is being worked on. */
  update(done: number, total?: number, note?: string): void;
  /** A line that stays (a step of a long run whose children write to stderr too). */
  note(text: string): void;
  /** Clears the live line. Safe to call more than once. */
  done(): void;
}

const SILENT: Progress = { update() {}, note() {}, done() {} };

/** Redraws at most this often: a scan of 100,000 entries must not write 100,000 lines. */
const REDRAW_MS = 100;

/**
 * Progress on stderr, only when stderr is a terminal that can redraw a line: piped or redirected
 * output (CI logs, JSON consumers, an MCP host reading stdio) and TERM=dumb (editor shells, which
 * print escape codes as text) never see it. The line is redrawn in place and cleared at the end,
 * so it leaves nothing behind in scrollback.
 */
export function progress(
  label: string,
  stream: ProgressStream = process.stderr,
  env: NodeJS.ProcessEnv = process.env,
): Progress {
  if (stream.isTTY !== true || env.TERM === "dumb") return SILENT;
  let last = 0;
  let shown = false;
  return {
    update(done, total, note) {
      const now = Date.now();
      if (shown && now - last < REDRAW_MS && done !== total) return;
      last = now;
      shown = true;
      const count = total === undefined ? `${done}` : `${done}/${total}`;
      stream.write(`\r\x1b[K${label} ${count}${note ? ` ${note}` : ""}`);
    },
    note(text) {
      stream.write(`${shown ? "\r\x1b[K" : ""}${text}\n`);
      shown = false;
    },
    done() {
      if (!shown) return;
      shown = false;
      stream.write("\r\x1b[K");
    },
  };
}

/** The progress of a library operation: silent unless the caller (a CLI, a bench) asks for it. */
export type ProgressFactory = (label: string) => Progress;

export const noProgress: ProgressFactory = () => SILENT;
