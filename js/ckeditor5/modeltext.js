// The text of a CKEditor 5 document as the engine sees it, with the way back to model positions.
//
// Built from the MODEL, not the editing view or getData(): the model is what markers live in, and
// it is free of view-only elements (fillers, widget chrome, our own highlights). Every element
// that may hold text (paragraph, heading, list item — lists are flat paragraphs with list
// attributes —, table cell paragraph, caption) is one block; blocks are joined with "\n\n". Bold,
// italic and links are attributes on text nodes, so a sentence spanning them is one run of text,
// and a fragment across them maps to one model range.

import { TextMap } from "../textmap.js";

/**
 * @param {import("ckeditor5").Model} model
 * @param {string} [rootName] the root to read (multi-root editors); the main one by default
 * @returns {TextMap} positions are `{ ref: model element, offset }`: model.createPositionAt(ref, offset)
 */
export function modelText(model, rootName = "main") {
  const map = new TextMap();
  const root = model.document.getRoot(rootName);
  if (!root) return map;
  const walk = (element) => {
    if (model.schema.checkChild(element, "$text")) {
      map.breakBlock();
      for (const child of element.getChildren()) {
        if (child.is("$text") || child.is("$textProxy")) {
          // Model offsets count UTF-16 code units, exactly like the engine's spans.
          map.appendText(child.data, element, child.startOffset);
        } else if (child.is("element", "softBreak")) {
          map.appendText("\n", element, child.startOffset);
        } else {
          // An inline object (an image, a mention widget): a word boundary, never part of a word.
          map.appendText(" ", element, child.startOffset);
        }
      }
      map.breakBlock();
      return;
    }
    // A container of blocks (block quote, table, table cell, ...) or an object without text.
    const children = () => {
      for (const child of element.getChildren()) if (child.is("element")) walk(child);
    };
    // A block quote is a quotation: the engine leaves it out as it does text in quotation marks.
    if (element.is("element", "blockQuote")) map.quotation(children);
    else children();
  };
  walk(root);
  return map;
}

/** A TextMap range as a model range (or null). */
export function toModelRange(model, map, start, end) {
  const r = map.rangeOf(start, end);
  if (!r) return null;
  return model.createRange(
    model.createPositionAt(r.start.ref, r.start.offset),
    model.createPositionAt(r.end.ref, r.end.offset),
  );
}
