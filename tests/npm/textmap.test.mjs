// TextMap, the editor-independent half of the editor adapters: offsets in the checked text map
// back to (ref, offset) positions exactly, across runs (formatting) and blocks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { TextMap } from "../../pkg/textmap.js"; // what ships (scripts/build-pkg copies js/)

function sample() {
  // <p>ab<b>cd</b>ef</p><p></p><p>😀gh</p>: runs from three refs, an empty block, a surrogate pair.
  const m = new TextMap();
  m.breakBlock();
  m.appendText("ab", "p1", 0);
  m.appendText("cd", "p1", 2);
  m.appendText("ef", "p1", 4);
  m.breakBlock();
  m.breakBlock();
  m.breakBlock();
  m.appendText("😀gh", "p3", 0);
  return m;
}

test("blocks are joined with one blank line, whatever the empty blocks", () => {
  assert.equal(sample().text, "abcdef\n\n😀gh");
});

test("a range across runs maps to both ends in their own runs", () => {
  const m = sample();
  assert.deepEqual(m.rangeOf(1, 5), { start: { ref: "p1", offset: 1 }, end: { ref: "p1", offset: 5 } });
  // At a run boundary: start takes the next run, end the previous one.
  assert.deepEqual(m.locate(2, "start"), { ref: "p1", offset: 2 });
  assert.deepEqual(m.locate(2, "end"), { ref: "p1", offset: 2 });
});

test("a range across blocks ends in the first and starts in the second; UTF-16 offsets", () => {
  const m = sample();
  const at = m.text.indexOf("gh");
  assert.deepEqual(m.rangeOf(4, at + 2), { start: { ref: "p1", offset: 4 }, end: { ref: "p3", offset: 4 } });
  // A range that begins in the block gap starts at the next block, never in the previous one.
  assert.deepEqual(m.rangeOf(6, at + 1).start, { ref: "p3", offset: 0 });
  assert.deepEqual(m.rangeOf(4, 7).end, { ref: "p1", offset: 6 });
});

test("nothing for empty, inverted, out-of-range or gap-only ranges", () => {
  const m = sample();
  assert.equal(m.rangeOf(3, 3), null);
  assert.equal(m.rangeOf(5, 2), null);
  assert.equal(m.rangeOf(0, 99), null);
  assert.equal(m.rangeOf(6, 8), null);
  assert.equal(new TextMap().rangeOf(0, 1), null);
});
