// Exporting a report: a JSON file with the text and the engine's report (for a client, an editor,
// a ticket), and a printable view (print CSS in style.css turns the mirror with its marks into
// the printed text; the browser's print dialog also saves a PDF).

import { t, formatDate } from "./i18n.js";

/** The exported document; `text` is included so the offsets can be checked against it. */
export function reportDocument({ text, report, counters, manifest, lang, disguises = [] }) {
  return {
    tool: "uniqcheck",
    format: 1,
    checkedAt: new Date().toISOString(),
    language: lang,
    offsets: "utf16",
    text,
    counters,
    corpus: manifest
      ? { documents: manifest.documents, generated: manifest.generated, engine: manifest.engine_version }
      : null,
    report,
    // Where the text mixes alphabets or hides invisible characters (the engine's sketch).
    disguises,
  };
}

/** Saves `doc` as a .json download, named by date and time. */
export function downloadJson(doc) {
  const blob = new Blob([JSON.stringify(doc, null, 2) + "\n"], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  const stamp = doc.checkedAt.slice(0, 16).replace(/[:T]/g, "-");
  a.href = url;
  a.download = `uniqcheck-report-${stamp}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked later: some browsers start the download asynchronously.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Opens the print dialog; the header line printed above the report says when. */
export function printReport() {
  document.body.dataset.printedAt = t("printedAt", { date: formatDate(new Date()) });
  window.print();
}
