import type { ToolProjection } from "../declare/project.js";
import type { SchemaNote } from "./schema/types.js";
import type { SchemaConversion } from "./types.js";

/** A tool's conversion notes, made when first asked for. */
export interface NotesSource {
  notes(): readonly SchemaNote[];
}

/** Hidden key of a lazy conversion list: one tool's entries without building the whole list. */
const FOR_TOOL = Symbol("toolplane.conversionsForTool");
type ForTool = (name: string) => SchemaConversion[];

/**
 * The conversion list is long (a few notes per tool) and most callers never read it, so it is
 * built on first read; it is an ordinary enumerable array to JSON and to any reader.
 */
export function lazyConversions(
  tools: readonly ToolProjection[],
  notes: ReadonlyArray<NotesSource | undefined>,
): SchemaConversion[] {
  let built: SchemaConversion[] | undefined;
  const build = () => {
    built ??= notes.flatMap((list, i) => entriesOf(tools[i]!.name, list));
    return built;
  };
  let positions: Map<string, number[]> | undefined;
  const forTool: ForTool = (name) => {
    if (built) return built.filter((c) => c.tool === name);
    if (!positions) {
      positions = new Map();
      tools.forEach((t, i) => {
        const at = positions!.get(t.name);
        if (at) at.push(i);
        else positions!.set(t.name, [i]);
      });
    }
    return (positions.get(name) ?? []).flatMap((i) => entriesOf(name, notes[i]));
  };
  return new Proxy([] as SchemaConversion[], {
    get: (_t, key) => (key === FOR_TOOL ? forTool : Reflect.get(build(), key)),
    has: (_t, key) => Reflect.has(build(), key),
    ownKeys: () => Reflect.ownKeys(build()),
    getOwnPropertyDescriptor: (_t, key) => Reflect.getOwnPropertyDescriptor(build(), key),
  });
}

/**
 * One tool's entries of a conversion list, in order. A list the renderer made answers without
 * making every tool's notes (a call restored right after a cold render converts only its tool).
 */
export function conversionsForTool(list: readonly SchemaConversion[], name: string): SchemaConversion[] {
  const forTool = (list as unknown as { [FOR_TOOL]?: ForTool })[FOR_TOOL];
  return forTool ? forTool(name) : list.filter((c) => c.tool === name);
}

function entriesOf(tool: string, source: NotesSource | undefined): SchemaConversion[] {
  return (source?.notes() ?? []).map((n) => ({ tool, path: n.path, change: n.change }));
}
