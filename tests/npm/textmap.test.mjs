// TextMap, the editor-independent half of the editor adapters: offsets in the checked text map
// back to (ref, offset) positions exactly, across runs (formatting) and blocks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { TextMap, withQuotations } from "../../pkg/textmap.js"; // what ships (scripts/build-pkg copies js/)

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

test("a quotation's range is its text, after the block break before it; nested ones overlap", () => {
  const m = new TextMap();
  m.appendText("Intro", "p0", 0);
  m.breakBlock();
  m.quotation(() => {
    m.breakBlock();
    m.appendText("Quoted 😀 one", "q1", 0);
    m.breakBlock();
    m.quotation(() => m.appendText("inner", "q2", 0));
    m.breakBlock();
  });
  m.breakBlock();
  m.quotation(() => m.breakBlock()); // an empty block quote: nothing
  m.appendText("After", "p3", 0);
  const text = m.text;
  assert.equal(text, "Intro\n\nQuoted 😀 one\n\ninner\n\nAfter");
  const slice = ([a, b]) => text.slice(a, b);
  assert.deepEqual(m.quoted.map(slice), ["inner", "Quoted 😀 one\n\ninner"]);
});

test("withQuotations adds the map's quotations only when quotations are excluded", () => {
  const m = new TextMap();
  m.quotation(() => m.appendText("q", "q", 0));
  assert.equal(withQuotations(undefined, m), undefined);
  const off = { exclude: { domains: ["a.ru"] } };
  assert.equal(withQuotations(off, m), off);
  const on = { gap: 3, exclude: { quotes: true, quoted: [[5, 6]] } };
  assert.deepEqual(withQuotations(on, m), { gap: 3, exclude: { quotes: true, quoted: [[5, 6], [0, 1]] } });
  assert.deepEqual(on.exclude.quoted, [[5, 6]], "the caller's options are not changed");
  assert.equal(withQuotations(on, new TextMap()), on);
});
