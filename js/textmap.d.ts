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
  /** Appends `str`, whose character k is at `offset + k` in `ref`. */
  appendText(str: string, ref: R, offset: number): void;
  /** Ends a block: the next text starts after "\n\n". */
  breakBlock(): void;
  locate(at: number, side?: "start" | "end"): TreePosition<R> | null;
  rangeOf(start: number, end: number): { start: TreePosition<R>; end: TreePosition<R> } | null;
}

/** The TextMap of a DOM subtree (a contenteditable): positions are DOM (node, offset) pairs. */
export function domText(root: Node): TextMap<Node>;
