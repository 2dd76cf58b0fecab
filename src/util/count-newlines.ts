/**
 * Counting newlines is the whole cost of a deep cold read. Buffer#indexOf pays a call per line
 * (about 3x slower than `wc -l` on source-like text); this 190-byte WebAssembly module compares 64
 * bytes per loop with SIMD and runs near memory speed. It is hand-assembled (source below) so that
 * no wasm toolchain becomes a dependency; where SIMD is missing, the indexOf loop is used.
 *
 *   (module
 *     (memory (export "mem") 17)                       ;; two 512 KiB scan buffers
 *     (func (export "count") (param $p i32) (param $end i32) (result i32)
 *       (local $n i32) (local $nl v128)
 *       (local.set $nl (i8x16.splat (i32.const 10)))
 *       (block $done (loop $top
 *         (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
 *         ;; four times, at offsets 0, 16, 32, 48:
 *         (local.set $n (i32.add (local.get $n) (i32.popcnt (i8x16.bitmask
 *           (i8x16.eq (v128.load offset=0 (local.get $p)) (local.get $nl))))))
 *         (local.set $p (i32.add (local.get $p) (i32.const 64)))
 *         (br $top)))
 *       (local.get $n)))
 */
const MODULE_BASE64 =
  "AGFzbQEAAAABBwFgAn9/AX8DAgEABQMBABEHDwIFY291bnQAAANtZW0CAApvAW0CAX8Be0EK/Q8hAwJAA0AgACABTw0BIAIgAP0ABAAgA/0j/WRpaiECIAIgAP0ABBAgA/0j/WRpaiECIAIgAP0ABCAgA/0j/WRpaiECIAIgAP0ABDAgA/0j/WRpaiECIABBwABqIQAMAAsLIAIL";

/** Bytes of each scan buffer; a multiple of 64. */
export const SCAN_BUFFER_BYTES = 512 * 1024;

// The part of the WebAssembly API used here (the project's lib settings do not declare it).
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: object | null | undefined;

function wasmModule(): object | null {
  if (compiled === undefined) {
    const bytes = Buffer.from(MODULE_BASE64, "base64");
    compiled = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
  }
  return compiled;
}

/** Two scan buffers and a counter of 0x0A bytes in any range of either. */
export interface NewlineCounter {
  buffers: readonly [Buffer, Buffer];
  /** Newline (0x0A) bytes in buf[from, to). */
  count(buf: Buffer, from: number, to: number): number;
}

const idle: NewlineCounter[] = [];
/** Idle counters kept for the next scan: wasm memory is freed only by a full GC, so reuse bounds it. */
const MAX_IDLE = 1;

/** Runs `scan` with a counter of its own: concurrent scans of two files never share buffers. */
export async function withNewlineCounter<T>(scan: (counter: NewlineCounter) => Promise<T>): Promise<T> {
  const counter = idle.pop() ?? newlineCounter();
  try {
    return await scan(counter);
  } finally {
    if (idle.length < MAX_IDLE) idle.push(counter);
  }
}

export function newlineCounter(): NewlineCounter {
  const mod = wasmModule();
  if (mod === null) {
    return {
      buffers: [Buffer.allocUnsafe(SCAN_BUFFER_BYTES), Buffer.allocUnsafe(SCAN_BUFFER_BYTES)],
      count: countWithIndexOf,
    };
  }
  const instance = new (wasm as WasmApi).Instance(mod);
  const memory = instance.exports.mem as { buffer: ArrayBuffer };
  const wasmCount = instance.exports.count as (p: number, end: number) => number;
  const buffers = [
    Buffer.from(memory.buffer, 0, SCAN_BUFFER_BYTES),
    Buffer.from(memory.buffer, SCAN_BUFFER_BYTES, SCAN_BUFFER_BYTES),
  ] as const;
  return {
    buffers,
    count(buf, from, to) {
      const base = buf.byteOffset + from;
      const whole = (to - from) & ~63;
      let n = whole > 0 ? wasmCount(base, base + whole) : 0;
      for (let i = from + whole; i < to; i++) if (buf[i] === 10) n++;
      return n;
    },
  };
}

export function countWithIndexOf(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let p = buf.indexOf(10, from); p !== -1 && p < to; p = buf.indexOf(10, p + 1)) n++;
  return n;
}

/** Whether the SIMD counter runs here (else the indexOf loop does). */
export function simdCounterAvailable(): boolean {
  return wasmModule() !== null;
}

/** Below this many bytes the indexOf loop is as fast as a copy into wasm memory and a SIMD scan. */
const SMALL_BYTES = 4096;
let shared: NewlineCounter | undefined;

/**
 * Newline (0x0A) bytes in any buffer. The SIMD counter reads only its own memory, so a large
 * buffer is copied through one of its scan buffers (a memcpy runs at memory speed; the indexOf
 * loop pays a call per line). Synchronous, so one shared counter serves every caller.
 */
export function countNewlinesIn(buf: Uint8Array): number {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < SMALL_BYTES) return countWithIndexOf(b, 0, b.length);
  shared ??= newlineCounter();
  const scratch = shared.buffers[0];
  let n = 0;
  for (let from = 0; from < b.length; from += SCAN_BUFFER_BYTES) {
    const len = Math.min(SCAN_BUFFER_BYTES, b.length - from);
    scratch.set(b.subarray(from, from + len), 0);
    n += shared.count(scratch, 0, len);
  }
  return n;
}
