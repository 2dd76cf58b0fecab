import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadBaseSdk } from "../../src/mcp/sdk.js";
import { checkIncoming } from "../../src/mcp/stdio/incoming.js";
import { LineSplitter, type OversizedMessage } from "../../src/mcp/stdio/lines.js";
import { TopLevelIdScanner } from "../../src/mcp/stdio/top-level-id.js";

/** Feeds `bytes` in the given piece sizes (cycled), as a pipe would. */
function pieces(bytes: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length] ?? 1);
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

const id = fc.oneof(fc.integer(), fc.string({ maxLength: 20 }));
const json = fc.jsonValue({ maxDepth: 3 });

describe("TopLevelIdScanner", () => {
  it("finds the top-level id wherever it is, whatever the nesting and chunking", () => {
    fc.assert(
      fc.property(
        id,
        fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 5 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 5 }),
        (want, rest, idFirst, sizes) => {
          const { id: _drop, ...others } = rest as Record<string, unknown>;
          // an "id" nested anywhere else must not be taken for the message's id
          const nested = { ...others, result: { id: "nested", items: [{ id: 99 }] } };
          const message = idFirst ? { id: want, ...nested } : { ...nested, id: want };
          const scanner = new TopLevelIdScanner();
          for (const piece of pieces(Buffer.from(JSON.stringify(message)), sizes)) scanner.feed(piece);
          expect(scanner.id()).toEqual(want);
          expect(scanner.hasMethod()).toBe(false);
        },
      ),
    );
  });

  it("reports no id for a message without one, a batch, or an id that is not a string or number", () => {
    for (const text of ['{"jsonrpc":"2.0","method":"x","params":{"id":3}}', '[{"id":1}]', '{"id":{"a":1}}']) {
      const scanner = new TopLevelIdScanner();
      scanner.feed(Buffer.from(text));
      expect(scanner.id(), text).toBeUndefined();
    }
    const request = new TopLevelIdScanner();
    request.feed(Buffer.from('{"jsonrpc":"2.0","id":"a\\"b","method":"sampling/createMessage"}'));
    expect(request.id()).toBe('a"b');
    expect(request.hasMethod()).toBe(true);
  });
});

describe("LineSplitter", () => {
  it("gives back every line under the limit and reports every line over it, in order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer()), { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 6 }),
        (specs, sizes) => {
          const limit = 30;
          const lines = specs.map(([pad, n]) => JSON.stringify({ id: n, p: "x".repeat(pad) }));
          const seen: Array<string | OversizedMessage> = [];
          const splitter = new LineSplitter(limit, {
            line: (l) => seen.push(l),
            oversized: (m) => seen.push(m),
          });
          for (const piece of pieces(Buffer.from(`${lines.join("\r\n")}\n`), sizes)) splitter.push(piece);
          const expected = lines.map((l, i) =>
            Buffer.byteLength(l) + (i < lines.length - 1 ? 1 : 0) > limit
              ? {
                  bytes: Buffer.byteLength(l) + (i < lines.length - 1 ? 1 : 0),
                  id: specs[i]?.[1],
                  hasMethod: false,
                }
              : l,
          );
          expect(seen).toEqual(expected);
        },
      ),
    );
  });
});

describe("checkIncoming", () => {
  // the transport loads the SDK when it starts; a line is checked only after that
  beforeAll(() => loadBaseSdk());

  it("passes valid messages and answers each kind of bad one", () => {
    expect(checkIncoming('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toMatchObject({ ok: true });
    expect(checkIncoming('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toMatchObject({
      ok: true,
    });
    const cases: Array<[string, number, string | number | null, RegExp]> = [
      ["{nope", -32700, null, /Parse error/],
      ['{"jsonrpc":"1.0","id":1,"method":"ping"}', -32600, 1, /must be the string "2\.0"/],
      ['{"jsonrpc":"2.0","id":{},"method":"ping"}', -32600, null, /"id" must be a string or an integer/],
      ['{"jsonrpc":"2.0","id":"a","method":7}', -32600, "a", /"method" must be a string/],
      ['{"jsonrpc":"2.0","id":2,"method":"ping","params":[1]}', -32602, 2, /"params" must be an object/],
      ['{"jsonrpc":"2.0","id":3,"method":"ping","extra":1}', -32600, 3, /unknown member\(s\) "extra"/],
      ["42", -32600, null, /must be a JSON object/],
      ["[]", -32600, null, /batches are not supported/],
    ];
    for (const [line, code, replyId, message] of cases) {
      const checked = checkIncoming(line);
      expect(checked.ok, line).toBe(false);
      if (checked.ok) continue;
      expect(checked.replies, line).toEqual([
        { jsonrpc: "2.0", id: replyId, error: { code, message: expect.stringMatching(message) } },
      ]);
    }
  });
});
