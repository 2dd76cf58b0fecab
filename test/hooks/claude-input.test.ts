// The arguments a hook reads are the model's, renamed: a key the model chose (`__proto__`,
// `constructor`) must reach the hook, and come back from its updatedInput, as the key it is.
import { describe, expect, it } from "vitest";
import { hookToolInput, toolArgsFromHook } from "../../src/hooks/claude-input.js";

const MODEL_ARGS = '{"path":"a.txt","__proto__":{"hidden":1},"constructor":"c","toString":"t"}';

describe("hook tool_input from a built-in's arguments", () => {
  it("keeps keys named like Object.prototype's as the model's own data, renamed only when listed", () => {
    const input = hookToolInput("read", "builtin", JSON.parse(MODEL_ARGS), "/w");
    expect(JSON.stringify(input)).toBe(
      '{"file_path":"/w/a.txt","__proto__":{"hidden":1},"constructor":"c","toString":"t"}',
    );
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(Object.keys(input)).toEqual(["file_path", "__proto__", "constructor", "toString"]);
  });

  it("an updatedInput with such keys comes back in the tool's names, as own keys", () => {
    const args = toolArgsFromHook(
      "edit",
      "builtin",
      JSON.parse('{"file_path":"/w/a","old_string":"x","__proto__":{"p":1},"constructor":"c"}'),
    );
    expect(Object.keys(args)).toEqual(["path", "oldString", "__proto__", "constructor"]);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(args.constructor).toBe("c");
  });
});
