// The CKEditor 5 plugin and <uniq-check> in a real browser (www/editor.html), against a real
// `uniqcheck serve` over the demo corpus. Run: scripts/test (builds pkg/, copies CKEditor's
// browser build into www/vendor/, builds the CLI, then `node --test tests/e2e/`).

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT, useDemo, inPage, startServer, article, artifact, rewrittenDraft, translatedDraft, countChecks } from "./harness.js";

const demo = useDemo({
  requires() {
    const vendor = join(ROOT, "www", "vendor", "ckeditor5", "ckeditor5.js");
    if (!existsSync(vendor)) throw new Error(`${vendor} is missing: npm ci, then scripts/build-pkg (scripts/test does both)`);
  },
});

/** Opens the demo in `lang`, waits for the editor and the plugin's packs, runs `fn`, and fails on console errors. */
async function withEditor(lang, fn, { viewport, initScript } = {}) {
  const locale = lang === "ru" ? "ru-RU" : "en-US";
  await inPage(demo.browser, `${demo.server.url}/editor.html?lang=${lang}`, { locale, viewport, initScript }, async (page) => {
    await page.waitForFunction(() => window.editor?.plugins.get("UniqCheck").checker, null, { timeout: 30_000 });
    await fn(page);
  });
}

/** Waits until the panel shows a report for exactly the editor's current text. */
async function waitChecked(page) {
  await page.waitForFunction(
    () => {
      const plugin = window.editor.plugins.get("UniqCheck");
      return plugin.report && plugin.text === plugin.getText() && plugin.panel.element.dataset.state === "stateDone";
    },
    null,
    { timeout: 20_000 },
  );
}

/** The CKEditor plugin's highlights by kind: the class of a piece and the attribute naming its index. */
const CK_MARKS = {
  fragment: { selector: ".uniqcheck-mark", index: "data-uniqcheck-fragment" },
  rewrite: { selector: ".uniqcheck-rewrite", index: "data-uniqcheck-rewrite" },
  translation: { selector: ".uniqcheck-translation", index: "data-uniqcheck-translation" },
};

/**
 * The highlighted text in the editing view, per fragment index (pieces joined in document order);
 * with kind "rewrite" or "translation", per index of that kind.
 */
function highlighted(page, kind = "fragment") {
  return page.evaluate(({ selector, index }) => {
    const out = {};
    for (const el of window.editor.editing.view.getDomRoot().querySelectorAll(selector)) {
      const i = el.getAttribute(index);
      out[i] = (out[i] ?? "") + el.textContent;
    }
    return out;
  }, CK_MARKS[kind]);
}

/** The figures a panel shows, as numbers (either locale's decimal separator). */
/**
 * Points at the first line of `mark` (a CKEditor marker's element), scrolled to the middle of the
 * window (not under the editor's sticky toolbar); the tooltip's text once it shows.
 */
async function hoverFor(page, mark) {
  const box = await mark.evaluate((el) => {
    el.scrollIntoView({ block: "center" });
    const r = el.getClientRects()[0];
    return { x: r.left, y: r.top, width: r.width, height: r.height };
  });
  await page.mouse.move(box.x + Math.min(8, box.width / 2), box.y + box.height / 2);
  const tip = page.locator(".uq-tip");
  await tip.waitFor({ state: "visible" });
  return tip.textContent();
}

async function panelFigures(panel) {
  const number = (s) => Number(s.replace(/[^\d,.]/g, "").replace(",", "."));
  const [u, o] = await panel.locator(".score-value").allTextContents();
  return { uniqueness: number(u), originality: number(o) };
}

/** The engine's own report for the plugin's text, computed in the page with the package's Checker. */
function engineReport(page) {
  return page.evaluate(async () => {
    const { loadChecker } = await import("/pkg/index.js");
    const checker = await loadChecker("/packs/manifest.json");
    const text = window.editor.plugins.get("UniqCheck").getText();
    const report = await checker.check(text);
    checker.free();
    return { text, report };
  });
}

/**
 * The copies, rewrites and translations painted as custom highlights in the page now (each with
 * the highlight's name and whether it lies inside a <blockquote> or <q>), and the words underlined
 * as mixing alphabets.
 */
function painted(page) {
  return page.evaluate(() => {
    const out = { copies: [], rewrites: [], translations: [], mixed: [] };
    const kinds = [["uniqcheck-rw-c", "rewrites"], ["uniqcheck-tr-c", "translations"], ["uniqcheck-c", "copies"]];
    for (const [name, highlight] of CSS.highlights) {
      const kind = kinds.find(([prefix]) => name.startsWith(prefix))?.[1];
      if (!kind) continue;
      for (const r of highlight) out[kind].push({ text: r.toString(), name, quoted: Boolean(r.startContainer.parentElement.closest("blockquote, q")) });
    }
    out.mixed = [...(CSS.highlights.get("uniqcheck-mixed") ?? [])].map((r) => r.toString());
    return out;
  });
}

/**
 * A contenteditable `#id` holding `html` (inline `style`) with a live `<uniq-check for=id>`
 * (boolean `attributes` set), put first or last in the page; waits for its first report.
 * Returns the report, its text and the copied, rewritten and translated passages' text, the
 * figures the element shows, the box's HTML afterwards and what is painted (`painted`).
 */
async function checkEditable(page, { id, html, attributes = [], first = false, style = "" }) {
  const result = await page.evaluate(
    async ({ id, html, attributes, first, style }) => {
      const box = document.createElement("div");
      box.id = id;
      box.contentEditable = "true";
      box.style.cssText = style;
      box.innerHTML = html;
      const check = document.createElement("uniq-check");
      check.setAttribute("for", id);
      check.setAttribute("live", "");
      for (const name of attributes) check.setAttribute(name, "");
      if (first) document.body.prepend(box, check);
      else document.body.append(box, check);
      const { report, text } = await new Promise((resolve) =>
        check.addEventListener("uniqcheck-report", (e) => resolve(e.detail), { once: true }),
      );
      return {
        report,
        text,
        fragments: report.fragments.map((f) => text.slice(f.start, f.end)),
        rewrites: (report.rewrites ?? []).map((f) => text.slice(f.start, f.end)),
        translations: (report.translations ?? []).map((f) => text.slice(f.start, f.end)),
        figures: [...check.querySelectorAll(".score-value")].map((v) => v.textContent),
        html: box.innerHTML,
      };
    },
    { id, html, attributes, first, style },
  );
  return { ...result, painted: await painted(page) };
}

// View text may carry CKEditor's inline fillers; blocks are separate elements (no "\n\n").
const squash = (s) => s.replace(/[\s\u200b\u2060\ufeff]+/g, "");
/** The squashed texts of painted passages (`painted`), sorted. */
const texts = (list) => list.map((p) => squash(p.text)).sort();

/** Pastes like a user copying from a web page: HTML and plain text on the clipboard. */
async function pasteInto(page, html, plain) {
  await page.evaluate(
    ([markup, text]) => {
      const data = new DataTransfer();
      data.setData("text/html", markup);
      data.setData("text/plain", text);
      const editable = window.editor.ui.getEditableElement();
      editable.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    },
    [html, plain],
  );
}

test("typed and pasted: the copied words are highlighted across bold and a link; getData() and undo are untouched", async () => {
  const { paragraphs } = article("ru/chugunnaya-skovoroda.html");
  const copied = paragraphs[1]; // "Новую сковороду сначала моют горячей водой ... двухсот градусов."
  const html = `<p style="color:red">${copied
    .replace("горячей водой", "<b>горячей водой</b>")
    .replace("заводскую смазку", '<a href="https://example.org/x">заводскую смазку</a>')}</p>`;
  const own = "Мой дед жарил на одной сковороде сорок лет и ни разу её не менял, только прокаливал каждую осень.";

  await withEditor("ru", async (page) => {
    await page.evaluate(() => window.editor.setData(""));
    await page.click(".ck-editor__editable");
    await page.keyboard.type(own);
    await page.keyboard.press("Enter");
    await pasteInto(page, html, copied);
    await page.waitForFunction((t) => window.editor.plugins.get("UniqCheck").getText().includes(t.slice(-30)), copied);

    const data = await page.evaluate(() => window.editor.getData());
    assert.match(data, /<strong>горячей водой<\/strong>/, "the pasted bold is kept");
    assert.match(data, /<a href="https:\/\/example.org\/x">заводскую смазку<\/a>/, "the pasted link is kept");

    // Manual mode: nothing is checked until the toolbar button is pressed.
    assert.equal(await page.locator(".uniqcheck-mark").count(), 0);
    await page.click(".uniqcheck-button");
    await waitChecked(page);

    // Every fragment of the engine's report is highlighted on exactly its words.
    const { text, report } = await engineReport(page);
    assert.ok(report.fragments.length > 0, "the copied paragraph is found");
    const marks = await highlighted(page);
    assert.deepEqual(Object.keys(marks).map(Number).sort(), report.fragments.map((_, i) => i));
    report.fragments.forEach((f, i) => {
      assert.equal(squash(marks[i]), squash(text.slice(f.start, f.end)), `fragment ${i} is highlighted exactly`);
    });
    const all = Object.values(marks).join(" ");
    for (const words of ["горячей водой", "заводскую смазку", "растительным маслом всю поверхность"]) {
      assert.ok(all.includes(words), `"${words}" is highlighted`);
    }
    assert.ok(!all.includes("жарил"), "the typed sentence of our own is not highlighted");
    // Across formatting: highlight pieces sit inside (or around) the <strong> and the <a>.
    const across = await page.evaluate(() => {
      const root = window.editor.editing.view.getDomRoot();
      const touches = (sel) =>
        [...root.querySelectorAll(sel)].some((el) => el.querySelector(".uniqcheck-mark") || el.closest(".uniqcheck-mark"));
      return { strong: touches("strong"), link: touches("a") };
    });
    assert.deepEqual(across, { strong: true, link: true });

    // The saved content never changes, and the markers are not undo steps: the first undo takes
    // back the paste, redo brings it back, and the data is byte for byte what it was.
    assert.equal(await page.evaluate(() => window.editor.getData()), data, "getData() is unchanged by checking");
    const undone = await page.evaluate(() => {
      window.editor.execute("undo");
      return window.editor.getData();
    });
    assert.ok(!undone.includes("горячей водой") && undone.includes("Мой дед"), `undo takes back the paste: ${undone}`);
    const redone = await page.evaluate(() => {
      window.editor.execute("redo");
      return window.editor.getData();
    });
    assert.equal(redone, data, "redo restores the paste");

    // Checking again after undo/redo still works and still leaves the data alone.
    await page.click(".uniqcheck-button");
    await waitChecked(page);
    assert.ok((await page.locator(".uniqcheck-mark").count()) > 0);
    assert.equal(await page.evaluate(() => window.editor.getData()), data);
    assert.equal(await page.evaluate(() => window.editor.commands.get("undo").isEnabled), true);
  });
});

test("the demo draft: lists, headings and links map exactly; the panel's figure is the engine's", async () => {
  await withEditor("ru", async (page) => {
    const before = await page.evaluate(() => window.editor.getData());
    await page.click(".uniqcheck-button");
    await waitChecked(page);

    const { text, report } = await engineReport(page);
    const plugin = await page.evaluate(() => window.editor.plugins.get("UniqCheck").report);
    assert.equal(plugin.uniqueness, report.uniqueness);
    assert.deepEqual(plugin.fragments, report.fragments);
    // The figure as shown: the same number, in Russian formatting.
    const shown = await page.textContent("#uniqcheck-panel .score-value");
    assert.equal(Number(shown.replace(/[^\d,]/g, "").replace(",", ".")), Math.round(report.uniqueness * 10) / 10);
    assert.ok(report.uniqueness > 0 && report.uniqueness < 100, `uniqueness ${report.uniqueness}`);

    const marks = await highlighted(page);
    report.fragments.forEach((f, i) => assert.equal(squash(marks[i]), squash(text.slice(f.start, f.end))));
    const all = Object.values(marks).join(" ");
    assert.ok(all.includes("просушивают на огне несколько минут"), "the copied list item is highlighted");
    assert.ok(!all.includes("Мой дед") && !all.includes("три переезда"), "our own paragraphs are not");

    const sources = await page.locator("#uniqcheck-panel .source-title").allTextContents();
    assert.ok(sources[0]?.includes("Чугунная сковорода"), `the article is the first source: ${sources}`);
    // What the figures are measured against, beside them; counted phrases in their right form.
    assert.match(await page.textContent("#uniqcheck-panel .uq-corpus"), /^Проверено по 30 документам, база от .*\d{4}/);
    const state = await page.textContent("#uniqcheck-panel .uq-state");
    const n = Number(/: ([\d\s\u00a0]+) значим/.exec(state)[1].replace(/\D/g, ""));
    const form = { one: "значимое слово", few: "значимых слова", many: "значимых слов" }[new Intl.PluralRules("ru").select(n)];
    assert.ok(state.includes(` ${form}.`), state);

    // Focusing a fragment in the panel outlines its highlight in the editor.
    await page.locator("#uniqcheck-panel .fragment").first().focus();
    assert.ok((await page.locator(".uniqcheck-mark.active").count()) > 0);
    assert.equal(await page.evaluate(() => window.editor.getData()), before, "getData() is unchanged");

    await page.mouse.move(0, 0);
    await page.screenshot({ path: artifact("editor.png"), fullPage: true });
  }, { viewport: { width: 1280, height: 900 } });
});

test("CKEditor: a word mixing alphabets is underlined and counted in the panel; getData() untouched", async () => {
  const { paragraphs } = article("ru/chugunnaya-skovoroda.html");
  // "cковорода" with a Latin "c", and a zero-width space inside "при\u200bготовлении".
  const data = `<p>Моя бабушка берегла свою cковороду и мыла её только при\u200bготовлении блинов.</p><p>${paragraphs[1]}</p>`;
  await withEditor("ru", async (page) => {
    await page.evaluate((html) => window.editor.setData(html), data);
    const before = await page.evaluate(() => window.editor.getData());
    await page.click(".uniqcheck-button");
    await waitChecked(page);
    const underlined = await page.evaluate(() =>
      [...window.editor.editing.view.getDomRoot().querySelectorAll(".uniqcheck-mixed")].map((e) => e.textContent),
    );
    assert.deepEqual(underlined, ["cковороду"]);
    assert.equal(
      await page.textContent("#uniqcheck-panel .uq-disguises"),
      "Смешанные алфавиты и скрытые символы: 1 слово со смешанными алфавитами, 1 невидимый символ. Проверка видит сквозь них, но текст с ними выглядит подделанным, чтобы обмануть проверку.",
    );
    assert.equal(await page.evaluate(() => window.editor.getData()), before, "getData() is unchanged");
    await page.locator(".ck-editor__editable").screenshot({ path: artifact("editor-mixed-alphabets.png") });
  });
});

test("live mode: typing a copied sentence highlights it without the button", async () => {
  const { paragraphs } = article("en/sourdough-starter.html");
  await withEditor("en", async (page) => {
    await page.evaluate(
      (copied) => window.editor.setData(`<p>Some words of my own about baking bread at home on Sundays.</p><p>${copied}</p>`),
      paragraphs[1],
    );
    // Switching live on checks at once...
    await page.click(".uniqcheck-live");
    assert.equal(await page.evaluate(() => window.editor.plugins.get("UniqCheck").live), true);
    await waitChecked(page);
    let all = Object.values(await highlighted(page)).join(" ");
    assert.ok(all.includes("At room temperature a starter needs"), `the copied paragraph is highlighted: ${all}`);

    // ...and typing checks again after a pause, with no button pressed.
    await page.click(".ck-editor__editable");
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.type(paragraphs[2].slice(0, 140));
    await page.waitForFunction((t) => window.editor.plugins.get("UniqCheck").text?.includes(t), paragraphs[2].slice(100, 140), {
      timeout: 20_000,
    });
    await waitChecked(page);
    all = Object.values(await highlighted(page)).join(" ");
    assert.ok(all.includes("A lively starter doubles"), `the typed copy is highlighted: ${all}`);
    assert.ok(!all.includes("my own"), "our own words are not");
    assert.match(await page.textContent("#uniqcheck-panel .score-label"), /Uniqueness/);

    // Destroying the editor takes the panel (and the plugin's worker) with it, quietly.
    await page.evaluate(() => window.editor.destroy());
    assert.equal(await page.locator("#uniqcheck-panel .uq-panel").count(), 0);
  });
});

test("rewrites in CKEditor: marked in their own style on exactly their words, the source on hover and at the caret (ru, en); getData() untouched", async () => {
  const draft = rewrittenDraft();
  // Formatting inside the rewritten and the copied paragraphs: the marks must map across it.
  const html = draft.parts
    .map((p, i) => `<p>${i === 2 ? p.replace(/^(\S+ \S+)/, "<strong>$1</strong>") : i === 1 ? p.replace("горячей водой", "<em>горячей водой</em>") : p}</p>`)
    .join("");
  for (const lang of ["ru", "en"]) {
    await withEditor(lang, async (page) => {
      await page.evaluate((h) => window.editor.setData(h), html);
      const data = await page.evaluate(() => window.editor.getData());
      // The plugin's check() (on a phone the toolbar folds the button into its "more" menu).
      await page.evaluate(() => window.editor.plugins.get("UniqCheck").check());
      await waitChecked(page);

      const { text, report } = await engineReport(page);
      assert.ok(report.rewrites.length > 0, "the engine finds the rewrites");
      assert.ok(report.originality < report.uniqueness, `originality ${report.originality} < uniqueness ${report.uniqueness}`);

      // The panel shows both figures, the engine's, uniqueness first.
      const panel = page.locator("#uniqcheck-panel");
      assert.deepEqual(await panelFigures(panel), { uniqueness: report.uniqueness, originality: report.originality });
      assert.deepEqual(
        await panel.locator(".score-label").allTextContents(),
        lang === "ru" ? ["Уникальность", "Оригинальность"] : ["Uniqueness", "Originality"],
      );

      // Every rewrite of the report is marked on exactly its words, in its own style, apart from copies.
      const rewrites = await highlighted(page, "rewrite");
      assert.deepEqual(Object.keys(rewrites).map(Number).sort(), report.rewrites.map((_, i) => i));
      report.rewrites.forEach((f, i) => assert.equal(squash(rewrites[i]), squash(text.slice(f.start, f.end)), `rewrite ${i} is marked exactly`));
      const copies = await highlighted(page);
      report.fragments.forEach((f, i) => assert.equal(squash(copies[i]), squash(text.slice(f.start, f.end))));
      assert.equal(await page.locator(".uniqcheck-rewrite .uniqcheck-mark, .uniqcheck-mark .uniqcheck-rewrite").count(), 0, "no mark is both");
      const looks = await page.evaluate(() => {
        const cs = (sel) => getComputedStyle(window.editor.editing.view.getDomRoot().querySelector(sel));
        return { rewrite: cs(".uniqcheck-rewrite").backgroundImage, copy: cs(".uniqcheck-mark").backgroundImage };
      });
      assert.match(looks.rewrite, /linear-gradient/, "a rewrite has its dashed underline");
      assert.equal(looks.copy, "none");
      const bold = await page.evaluate(() =>
        [...window.editor.editing.view.getDomRoot().querySelectorAll("strong")].some((el) => el.querySelector(".uniqcheck-rewrite") || el.closest(".uniqcheck-rewrite")),
      );
      assert.ok(bold, "a rewrite is marked across the bold words");

      // The panel lists them; the source counts them.
      // One item per rewrite, a button per paragraph of it.
      assert.equal(await panel.locator(".rewrites > li").count(), report.rewrites.length);
      const paragraphs = report.rewrites.reduce((n, r) => n + text.slice(r.start, r.end).split(/\n+/).filter((p) => p.trim()).length, 0);
      assert.equal(await panel.locator("button.fragment.rewrite").count(), paragraphs);
      assert.match(await panel.locator(".source-meta").first().textContent(), lang === "ru" ? /рерайт: \d+ фрагмент/ : /rewritten: \d+ passage/);

      // Hover: the tooltip names the source.
      const mark = page.locator(".uniqcheck-rewrite").first();
      const tip = page.locator(".uq-tip");
      let said = await hoverFor(page, mark);
      assert.match(said, lang === "ru" ? /Рерайт: переписано из источника/ : /Rewrite: reworded from a source/);
      assert.ok(said.includes(draft.title), said);
      await page.screenshot({ path: artifact(`editor-rewrite-hover-${lang}.png`) });
      await page.mouse.move(1, 1);
      await tip.waitFor({ state: "hidden" });

      // The caret moved into a rewrite (a click, then an arrow): the tooltip and the caret line.
      await mark.click();
      await page.keyboard.press("ArrowRight");
      await tip.waitFor({ state: "visible" });
      said = await tip.textContent();
      assert.ok(said.includes(draft.title), said);
      const caret = await panel.locator(".uq-caret").textContent();
      assert.match(caret, lang === "ru" ? /рерайт/ : /rewritten from/);
      assert.equal(await panel.locator(".uq-caret").getAttribute("aria-live"), "polite");

      // Focusing a rewrite in the panel outlines it in the editor.
      await panel.locator("button.fragment.rewrite").first().focus();
      assert.ok((await page.locator(".uniqcheck-rewrite.active").count()) > 0);

      // The saved content is exactly what it was, and the markers are no undo step.
      assert.equal(await page.evaluate(() => window.editor.getData()), data, "getData() is unchanged by rewrite markers");
      assert.ok(!(await page.evaluate(() => window.editor.getData())).includes("uniqcheck"));
      await page.keyboard.press("Escape");
      // The panel below the editor on a phone, the figures side by side.
      if (lang === "en") {
        await page.screenshot({ path: artifact("editor-phone-en.png"), fullPage: true });
        await panel.locator(".score").screenshot({ path: artifact("editor-phone-figures-en.png") });
      }
    }, { viewport: lang === "ru" ? { width: 1280, height: 900 } : { width: 390, height: 844 } });
  }
});

test("<uniq-check> on a contenteditable paints rewrites apart from copies and names their source on hover", async () => {
  const draft = rewrittenDraft();
  const html = draft.parts.map((p) => `<p>${p}</p>`).join("");
  await withEditor("en", async (page) => {
    const result = await checkEditable(page, { id: "rich-rw", html, first: true, style: "width: 700px; font: 16px/1.5 sans-serif" });
    assert.ok(result.rewrites.length > 0, "rewrites found");
    assert.deepEqual(texts(result.painted.rewrites), result.rewrites.map(squash).sort(), "each rewrite is painted as a rewrite");
    assert.deepEqual(texts(result.painted.copies), result.fragments.map(squash).sort(), "each copy as a copy");
    assert.equal(result.html, html, "the content is untouched");
    assert.deepEqual(result.figures, [`${result.report.uniqueness}\u202f%`, `${result.report.originality}\u202f%`]);

    // Hover over a painted rewrite: the tooltip names the source.
    const point = await page.evaluate(() => {
      const range = [...CSS.highlights].find(([name]) => name.startsWith("uniqcheck-rw-"))[1].values().next().value;
      const r = range.getClientRects()[0];
      return { x: r.left + Math.min(10, r.width / 2), y: r.top + r.height / 2 };
    });
    await page.mouse.move(point.x, point.y);
    const tip = page.locator(".uq-tip");
    await tip.waitFor({ state: "visible" });
    const said = await tip.textContent();
    assert.match(said, /Rewrite: reworded from a source/);
    assert.ok(said.includes(draft.title), said);
    await page.screenshot({ path: artifact("element-rewrite-hover-en.png") });
  });
});

test("translations in CKEditor: marked in their own style on exactly their words, listed, the source on hover and at the caret (ru, en); getData() untouched", async () => {
  // English translated from a Russian demo article, after a sentence of our own: found through
  // the bilingual table the server publishes with its packs, never as a copy or a rewrite.
  const draft = translatedDraft();
  const html = draft.parts.map((p, i) => `<p>${i === 1 ? p.replace("the yeast", "<strong>the yeast</strong>") : p}</p>`).join("");
  for (const lang of ["ru", "en"]) {
    await withEditor(lang, async (page) => {
      await page.evaluate((h) => window.editor.setData(h), html);
      const data = await page.evaluate(() => window.editor.getData());
      await page.evaluate(() => window.editor.plugins.get("UniqCheck").check());
      await waitChecked(page);

      const { text, report } = await engineReport(page);
      assert.ok(report.translations.length > 0, "the engine finds the translation");
      assert.deepEqual(await page.evaluate(() => window.editor.plugins.get("UniqCheck").report.translations), report.translations);
      const translatedAt = text.indexOf(draft.translated);
      const inTranslated = (f) => f.start < translatedAt + draft.translated.length && translatedAt < f.end;
      assert.ok(report.translations.some(inTranslated), "in the translated paragraph");
      for (const f of [...report.fragments, ...report.rewrites]) assert.ok(!inTranslated(f), `no copy or rewrite in it: ${f.start}-${f.end}`);
      const panel = page.locator("#uniqcheck-panel");
      assert.deepEqual(await panelFigures(panel), { uniqueness: report.uniqueness, originality: report.originality });

      // Every translation of the report is marked on exactly its words (across the bold ones), in
      // its own style, and nothing in it is marked as a copy or a rewrite.
      const translations = await highlighted(page, "translation");
      assert.deepEqual(Object.keys(translations).map(Number).sort(), report.translations.map((_, i) => i));
      report.translations.forEach((f, i) => assert.equal(squash(translations[i]), squash(text.slice(f.start, f.end)), `translation ${i} is marked exactly`));
      const others = [...Object.values(await highlighted(page)), ...Object.values(await highlighted(page, "rewrite"))].map(squash);
      const words = squash(draft.translated);
      assert.deepEqual(others.filter((o) => words.includes(o)), [], "no copy or rewrite mark on the translated words");
      assert.equal(
        await page.locator(".uniqcheck-translation :is(.uniqcheck-mark, .uniqcheck-rewrite), :is(.uniqcheck-mark, .uniqcheck-rewrite) .uniqcheck-translation").count(),
        0,
        "no mark is both",
      );
      const bold = await page.evaluate(() =>
        [...window.editor.editing.view.getDomRoot().querySelectorAll("strong")].some((el) => el.querySelector(".uniqcheck-translation") || el.closest(".uniqcheck-translation")),
      );
      assert.ok(bold, "the translation is marked across the bold words");
      // Told apart without colour: a tint with a dotted underline, as the legend's translation
      // sample, unlike its rewrite sample's dashes.
      const looks = await page.evaluate(() => {
        const cs = (el) => ({ image: getComputedStyle(el).backgroundImage, size: getComputedStyle(el).backgroundSize });
        const panel = document.getElementById("uniqcheck-panel");
        return {
          mark: cs(window.editor.editing.view.getDomRoot().querySelector(".uniqcheck-translation")),
          translation: cs(panel.querySelector(".marks-legend .uq-sample.translation")),
          rewrite: cs(panel.querySelector(".marks-legend .uq-sample.rewrite")),
        };
      });
      assert.match(looks.mark.image, /linear-gradient/, "a translation has its dotted underline");
      assert.equal(looks.mark.size, looks.translation.size, "drawn as the legend's translation sample");
      assert.notEqual(looks.mark.size, looks.rewrite.size, "not as a rewrite's dashes");
      assert.match(await panel.locator(".marks-legend").textContent(), lang === "ru" ? /перевод — переведено из источника/ : /translation — translated from the source/);

      // The panel lists them under their own heading, a button per paragraph; the source counts them.
      const box = panel.locator(".panel:has(.translations)");
      assert.equal(await box.locator("h3").textContent(), lang === "ru" ? "Переведено из источника" : "Translated from the source");
      assert.equal(await panel.locator(".translations > li").count(), report.translations.length);
      const paragraphs = report.translations.reduce((n, r) => n + text.slice(r.start, r.end).split(/\n+/).filter((p) => p.trim()).length, 0);
      assert.equal(await panel.locator("button.fragment.translation").count(), paragraphs);
      assert.match(await panel.locator("button.fragment.translation").first().getAttribute("aria-label"), lang === "ru" ? /^Перевод 1: / : /^Translation 1: /);
      assert.match(await panel.locator(".source-meta").first().textContent(), lang === "ru" ? /перевод: \d+ фрагмент/ : /translated: \d+ passage/);

      // Hover: the tooltip says it is a translation and names the source.
      const mark = page.locator(".uniqcheck-translation").first();
      const tip = page.locator(".uq-tip");
      let said = await hoverFor(page, mark);
      assert.match(said, lang === "ru" ? /Перевод из источника/ : /Translated from the source/);
      assert.ok(said.includes(draft.title), said);
      await page.screenshot({ path: artifact(`editor-translation-hover-${lang}.png`) });
      await page.mouse.move(1, 1);
      await tip.waitFor({ state: "hidden" });

      // The caret moved into it (a click, then an arrow): the tooltip and the caret line.
      await mark.click();
      await page.keyboard.press("ArrowRight");
      await tip.waitFor({ state: "visible" });
      said = await tip.textContent();
      assert.match(said, lang === "ru" ? /Перевод из источника/ : /Translated from the source/);
      assert.match(await panel.locator(".uq-caret").textContent(), lang === "ru" ? /переведённом из источника/ : /translated from/);

      // Focusing it in the panel outlines it in the editor.
      await panel.locator("button.fragment.translation").first().focus();
      assert.ok((await page.locator(".uniqcheck-translation.active").count()) > 0);

      // The saved content is exactly what it was.
      assert.equal(await page.evaluate(() => window.editor.getData()), data, "getData() is unchanged by translation markers");
      await page.keyboard.press("Escape");
    });
  }
});

test("<uniq-check> on a contenteditable paints translations apart from copies and rewrites and names their source on hover", async () => {
  const draft = translatedDraft();
  const html = draft.parts.map((p) => `<p>${p}</p>`).join("");
  await withEditor("en", async (page) => {
    const result = await checkEditable(page, { id: "rich-tr", html, first: true, style: "width: 700px; font: 16px/1.5 sans-serif" });
    assert.ok(result.translations.length > 0, "translations found");
    assert.deepEqual(texts(result.painted.translations), result.translations.map(squash).sort(), "each translation is painted as a translation");
    const words = squash(draft.translated);
    const others = [...result.painted.copies, ...result.painted.rewrites].map((p) => squash(p.text));
    assert.deepEqual(others.filter((o) => words.includes(o)), [], "nothing in it painted as a copy or a rewrite");
    assert.equal(result.html, html, "the content is untouched");
    assert.deepEqual(result.figures, [`${result.report.uniqueness}\u202f%`, `${result.report.originality}\u202f%`]);
    // The highlights' names are styled with a dotted underline (report.css), not a rewrite's dashes.
    const styles = await page.evaluate((names) => {
      const rules = [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules]);
      return names.map((name) => rules.find((r) => r.selectorText === `::highlight(${name})`)?.style.textDecorationStyle ?? null);
    }, [...new Set(result.painted.translations.map((p) => p.name))]);
    assert.ok(styles.length > 0 && styles.every((s) => s === "dotted"), `dotted: ${styles}`);
    // The panel lists it under its own heading.
    const panel = page.locator("uniq-check[for=rich-tr]");
    assert.equal(await panel.locator(".translations > li").count(), result.translations.length);
    assert.equal(await panel.locator(".panel:has(.translations) h3").textContent(), "Translated from the source");

    // Hover over a painted translation: the tooltip says so and names the source.
    const point = await page.evaluate(() => {
      const range = [...CSS.highlights].find(([name]) => name.startsWith("uniqcheck-tr-"))[1].values().next().value;
      const r = range.getClientRects()[0];
      return { x: r.left + Math.min(10, r.width / 2), y: r.top + r.height / 2 };
    });
    await page.mouse.move(point.x, point.y);
    const tip = page.locator(".uq-tip");
    await tip.waitFor({ state: "visible" });
    const said = await tip.textContent();
    assert.match(said, /Translated from the source/);
    assert.ok(said.includes(draft.title), said);
    await page.screenshot({ path: artifact("element-translation-hover-en.png") });
  });
});

test("<uniq-check> on a plain textarea shows the figure and the source", async () => {
  await withEditor("en", async (page) => {
    const box = page.locator("#plain-check");
    await page.waitForFunction(() => /\d/.test(document.querySelector("#plain-check .score-value").textContent), null, {
      timeout: 20_000,
    });
    const [figure, originality] = (await box.locator(".score-value").allTextContents()).map((v) => Number(v.replace(/[^\d.]/g, "")));
    assert.ok(figure < 50, `a copied paragraph is not unique (${figure} %)`);
    assert.ok(originality <= figure, `originality ${originality} is never above uniqueness ${figure}`);
    assert.match(await box.locator(".source-title").first().textContent(), /sourdough/i);
    assert.match(await box.locator(".uq-corpus").textContent(), /^Checked against 30 documents, indexed .*\d{4}/);

    // A textarea cannot paint, but its caret line says what the caret is in.
    await page.$eval("#plain", (t) => t.setSelectionRange(20, 20));
    await page.focus("#plain");
    await page.keyboard.press("ArrowRight");
    assert.match(await box.locator(".uq-caret").textContent(), /The caret is in a fragment matching: .*Sourdough/i);

    // Typing text of its own: live, the figure goes to 100 %.
    await page.fill("#plain", "");
    await page.click("#plain");
    await page.keyboard.type("Completely fresh words about submarines, violins and winter tyres, nothing else at all.");
    await page.waitForFunction(() => document.querySelector("#plain-check .score-value").textContent.startsWith("100"), null, {
      timeout: 20_000,
    });
    assert.equal(await box.locator(".uq-disguises").isVisible(), false, "nothing disguised");

    // A Cyrillic "о" in "viоlins" and a zero-width space: the panel counts them.
    await page.fill("#plain", "Completely fresh words about submarines, vi\u043elins and winter\u200btyres, nothing else at all.");
    await page.waitForFunction(() => !document.querySelector("#plain-check .uq-disguises").hidden, null, { timeout: 20_000 });
    assert.equal(
      await box.locator(".uq-disguises").textContent(),
      "Mixed alphabets and hidden characters: 1 word mixing alphabets, 1 invisible character. The check sees through them, but a text holding them looks doctored to fool a checker.",
    );
  });
});

test("<uniq-check exclude-domains> and checkOptions: the engine leaves the source out and the panel says so", async () => {
  await withEditor("en", async (page) => {
    const box = page.locator("#plain-check");
    const figure = async () => Number((await box.locator(".score-value").first().textContent()).replace(/[^\d.]/g, ""));
    await page.waitForFunction(() => /\d/.test(document.querySelector("#plain-check .score-value").textContent), null, {
      timeout: 20_000,
    });
    assert.ok((await figure()) < 50);
    assert.equal(await box.locator(".uq-excluded").isVisible(), false, "nothing excluded yet");

    // The attribute is read at each check: the demo site (every source) is left out.
    await page.$eval("#plain-check", (el) => {
      el.setAttribute("exclude-domains", "https://www.demo.uniqcheck.local/");
      el.check();
    });
    await page.waitForFunction(() => !document.querySelector("#plain-check .uq-excluded").hidden, null, { timeout: 20_000 });
    assert.equal(await figure(), 100);
    // Every candidate is on the demo site: all were passed over.
    assert.match(await box.locator(".uq-excluded").textContent(), /^Left out of the check: \d+ sources? on your list\.$/);

    // The property overrides the attributes; a quotation is not a copy.
    await page.$eval("#plain", (t) => (t.value = `As the baker says: “${t.value}”`));
    await page.$eval("#plain-check", (el) => {
      el.checkOptions = { exclude: { quotes: true } };
      el.check();
    });
    await page.waitForFunction(() => /in quotations/.test(document.querySelector("#plain-check .uq-excluded").textContent), null, {
      timeout: 20_000,
    });
    assert.equal(await figure(), 100);
    assert.match(await box.locator(".uq-excluded").textContent(), /^Left out of the check: \d+ words in quotations \(not counted as copied\)\.$/);
    // The whole page: an element screenshot would catch the CKEditor panel, sticky, over it.
    await page.screenshot({ path: artifact("element-exclusions.png"), fullPage: true });
  });
});

test("block quotes are quotations when quotations are left out: CKEditor's and a contenteditable's", async () => {
  const { paragraphs } = article("en/sourdough-starter.html");
  const data = `<p>My own opening line about the bread I bake on Sundays.</p><blockquote><p>${paragraphs[1]}</p></blockquote><p>${paragraphs[2]}</p>`;
  await withEditor("en", async (page) => {
    const marks = () =>
      page.evaluate(() => {
        const root = window.editor.editing.view.getDomRoot();
        return { all: root.querySelectorAll(".uniqcheck-mark").length, quoted: root.querySelectorAll("blockquote .uniqcheck-mark").length };
      });
    await page.evaluate((d) => {
      window.editor.setData(d);
      window.editor.plugins.get("UniqCheck").check();
    }, data);
    await waitChecked(page);
    const before = await marks();
    assert.ok(before.quoted > 0, "without the option the quoted copy is marked");
    const plain = await page.evaluate(() => window.editor.plugins.get("UniqCheck").report);
    assert.equal(plain.excluded.quoted_words, 0);

    await page.evaluate(() => {
      const plugin = window.editor.plugins.get("UniqCheck");
      plugin.checkOptions = { exclude: { quotes: true } };
      plugin.check();
    });
    await page.waitForFunction(() => window.editor.plugins.get("UniqCheck").report?.excluded.quoted_words > 0, null, { timeout: 20_000 });
    await waitChecked(page);
    const after = await marks();
    assert.equal(after.quoted, 0, "nothing marked inside the block quote");
    assert.ok(after.all > 0, "the copied paragraph after it is still marked");
    const report = await page.evaluate(() => window.editor.plugins.get("UniqCheck").report);
    assert.ok(report.uniqueness > plain.uniqueness, `${report.uniqueness} > ${plain.uniqueness}`);
    assert.match(await page.locator("#uniqcheck-panel .uq-excluded").textContent(), /\d+ words in quotations/);
    assert.equal(await page.evaluate(() => window.editor.getData().includes("<blockquote>")), true, "the content is untouched");
    await page.screenshot({ path: artifact("ckeditor-blockquote-excluded-en.png") });

    // <uniq-check exclude-quotes> on a contenteditable: <blockquote> and <q> are quotations.
    const html = `<p>My own opening line.</p><blockquote><p>${paragraphs[1]}</p></blockquote><p>As the baker says, <q>${paragraphs[2]}</q></p><p>${paragraphs[3]}</p>`;
    const result = await checkEditable(page, { id: "quoting", html, attributes: ["exclude-quotes"], first: true });
    assert.ok(result.report.excluded.quoted_words > 0, "the report counts the quoted words");
    assert.ok(result.painted.copies.length > 0, "the unquoted copy is painted");
    assert.deepEqual(result.painted.copies.filter((p) => p.quoted), [], "nothing painted inside <blockquote> or <q>");
    await page.locator("#quoting").screenshot({ path: artifact("element-blockquote-excluded.png") });
  });
});

test("<uniq-check> on a contenteditable paints custom highlights on the copied words, leaving the DOM alone", async () => {
  const { paragraphs } = article("en/sourdough-starter.html");
  // "jаr" with a Cyrillic "а": a word mixing alphabets, underlined apart from the copies.
  const html = `<p>My own opening line about a blue j\u0430r on the radio.</p><p>${paragraphs[1].replace("fresh flour and water", "<b>fresh flour</b> and water")}</p><p>${paragraphs[2]}</p>`;
  await withEditor("en", async (page) => {
    const result = await checkEditable(page, { id: "rich", html });
    assert.ok(result.fragments.length > 0);
    assert.deepEqual(result.painted.mixed, ["j\u0430r"], "the word mixing alphabets is underlined");
    assert.match(await page.locator("uniq-check .uq-disguises").last().textContent(), /1 word mixing alphabets/);
    await page.locator("#rich").screenshot({ path: artifact("element-mixed-alphabets.png") });
    assert.deepEqual(texts(result.painted.copies), result.fragments.map(squash).sort(), "each fragment is painted exactly");
    assert.equal(result.html, html, "the content is untouched");

    // Typing before a copy moves its highlight with the words (live ranges) instead of clearing
    // it until the next report, which comes 400 ms after the last key.
    await page.evaluate(() => {
      const first = document.querySelector("#rich p");
      getSelection().collapse(first.firstChild, 0);
      first.parentElement.focus();
    });
    await page.keyboard.type("Well, ");
    const typed = await page.evaluate(() => document.getElementById("rich").textContent);
    assert.ok(typed.startsWith("Well, My own"), typed.slice(0, 40));
    const moved = await painted(page);
    assert.deepEqual(texts(moved.copies), result.fragments.map(squash).sort(), "the same words stay painted while typing");
  });
});

test("packs from another origin: the plugin checks against a uniqcheck server started with --cors", async () => {
  // The same store served twice: the page from one origin, the packs from another that allows
  // cross-origin reads (--cors '*': reads only, never writes).
  const other = await startServer(demo.store.db, ["--cors", "*"]);
  try {
    const packs = `${other.url.replace("127.0.0.1", "localhost")}/packs/manifest.json`;
    const url = `${demo.server.url}/editor.html?lang=en&manifest=${encodeURIComponent(packs)}`;
    await inPage(demo.browser, url, { locale: "en-US" }, async (page) => {
      await page.waitForFunction(() => window.editor?.plugins.get("UniqCheck").checker, null, { timeout: 30_000 });
      assert.equal(await page.evaluate(() => window.editor.plugins.get("UniqCheck").checker.manifest.documents), 30);
      await page.click(".uniqcheck-button");
      await waitChecked(page);
      assert.ok((await page.locator(".uniqcheck-mark").count()) > 0, "fragments found with packs from the other origin");
    });
  } finally {
    await other.stop();
  }
});

test("a paste is checked at once, typing after a pause: the CKEditor plugin and <uniq-check>", async () => {
  // As on the page (tests/e2e/page.test.js): a check handed to a Web Worker within the edit's own
  // task had no timer in between; one that is not waits for the pause.
  await withEditor(
    "en",
    async (page) => {
      await page.evaluate(() => (window.editor.plugins.get("UniqCheck").live = true));
      await waitChecked(page);
      const plain = "#plain-check [data-state]";
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.state === "stateDone", plain, { timeout: 20_000 });
      const { paragraphs } = article("en/sourdough-starter.html");

      // CKEditor: a typing batch waits; the user's other changes (a paste, an undo: undoable batches) are checked at once.
      const typed = await page.evaluate(() => {
        const before = window.__checks;
        const model = window.editor.model;
        model.enqueueChange({ isTyping: true }, (writer) => writer.insertText("Fresh start. ", model.document.getRoot().getChild(0), 0));
        return [before, window.__checks];
      });
      assert.equal(typed[1], typed[0], "typing does not check before the pause");
      await waitChecked(page);
      const pasted = await page.evaluate((text) => {
        const before = window.__checks;
        const model = window.editor.model;
        model.change((writer) => writer.insertText(text, model.document.getRoot().getChild(0), 0));
        return [before, window.__checks];
      }, paragraphs[1]);
      assert.equal(pasted[1], pasted[0] + 1, "a pasted paragraph is checked at once");
      await waitChecked(page);

      // <uniq-check> on a textarea: by the input event's kind.
      const edit = (text, inputType) =>
        page.evaluate(
          ([text, inputType]) => {
            const before = window.__checks;
            const field = document.getElementById("plain");
            field.value = text;
            field.dispatchEvent(new InputEvent("input", { inputType, bubbles: true }));
            return [before, window.__checks];
          },
          [text, inputType],
        );
      const key = await edit("Completely fresh words about submarines, violins and winter tyres.", "insertText");
      assert.equal(key[1], key[0], "typing does not check before the pause");
      await page.waitForFunction((n) => window.__checks > n, key[0], { timeout: 20_000 });
      await page.waitForFunction((s) => document.querySelector(s).dataset.state === "stateDone", plain, { timeout: 20_000 });
      const paste = await edit(paragraphs.join("\n\n"), "insertFromPaste");
      assert.equal(paste[1], paste[0] + 1, "a paste is checked at once");
      await page.waitForFunction(() => /^\d/.test(document.querySelector("#plain-check .score-value").textContent) &&
        Number(document.querySelector("#plain-check .score-value").textContent.replace(/[^\d.]/g, "")) < 50, null, { timeout: 20_000 });
    },
    { initScript: countChecks },
  );
});
