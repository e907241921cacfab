/** A place in the editor's own tree: whatever the adapter appended (a node and an offset in it). */
export interface TreePosition<R = unknown> {
  ref: R;
  offset: number;
}

/**
 * The plain text an adapter gives the engine, with the way back from UTF-16 offsets to the
 * editor's positions. Blocks are joined with "\n\n".
 */
export class TextMap<R = unknown> {
  readonly text: string;
  readonly segments: { start: number; end: number; ref: R; offset: number }[];
  /**
   * `[start, end)` of the quotations that have no quotation marks in the text (block quotes,
   * `<q>`), for the engine's `exclude.quoted` ({@link withQuotations}).
   */
  readonly quoted: [number, number][];
  /** Appends `str`, whose character k is at `offset + k` in `ref`. */
  appendText(str: string, ref: R, offset: number): void;
  /** Ends a block: the next text starts after "\n\n". */
  breakBlock(): void;
  /** Appends what `fill` appends as one quotation (recorded in `quoted`). */
  quotation(fill: () => void): void;
  locate(at: number, side?: "start" | "end"): TreePosition<R> | null;
  rangeOf(start: number, end: number): { start: TreePosition<R>; end: TreePosition<R> } | null;
}

/**
 * `options` for a check of `map.text` with `map.quoted` added to `exclude.quoted` when
 * `exclude.quotes` is on; otherwise `options` unchanged.
 */
export function withQuotations<O extends { exclude?: { quotes?: boolean; quoted?: [number, number][] } }>(
  options: O | undefined,
  map: TextMap,
): O | undefined;

/** The TextMap of a DOM subtree (a contenteditable): positions are DOM (node, offset) pairs. */
export function domText(root: Node): TextMap<Node>;
