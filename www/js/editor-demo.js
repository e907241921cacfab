// The CKEditor 5 demo (editor.html): the real editor with the UniqCheck plugin from the npm
// package (/pkg/ckeditor5/), checking against the demo corpus served by `uniqcheck serve`, and a
// plain textarea with <uniq-check>. Exactly what a CMS integrator writes, minus the bundler.

import { ClassicEditor, Essentials, Paragraph, Heading, Bold, Italic, Link, List, BlockQuote } from "ckeditor5";
import ruUi from "/vendor/ckeditor5/translations/ru.js";
import { UniqCheck } from "/pkg/ckeditor5/index.js";
import { normalizeLang } from "/pkg/ui/i18n.js";

// ?lang= wins, then the page's remembered choice, then the browser's language.
function pickLang() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked) return normalizeLang(asked);
  try {
    const saved = localStorage.getItem("uniqcheck.lang");
    if (saved) return normalizeLang(saved);
  } catch {
    // No storage: the browser decides.
  }
  return normalizeLang(navigator.language);
}
const lang = pickLang();
// ?manifest= points the plugin at another uniqcheck server (started with --cors): a CMS on one
// origin, the packs on another.
const manifestUrl = new URLSearchParams(location.search).get("manifest") ?? "/packs/manifest.json";

const strings = {
  ru: {
    title: "uniqcheck — проверка уникальности в CKEditor 5",
    tagline: "Плагин для CKEditor 5 и элемент <uniq-check>: текст проверяется в браузере и никуда не отправляется.",
    editor: "CKEditor 5 с плагином UniqCheck",
    editorNote: "Совпадения (копии — заливкой, рерайт — пунктиром, перевод — точками) подсвечиваются маркерами редактора: сохраняемый HTML (getData()) не меняется.",
    plain: "Обычное поле и <uniq-check>",
    plainNote: "Тот же отчёт для любого textarea или contenteditable.",
    plainText:
      "Чугунная сковорода может служить десятилетиями, если обращаться с ней правильно. Главное, что нужно запомнить: чугун боится ржавчины, а защищает его тонкий слой полимеризованного масла, который образуется при прокаливании.",
  },
  en: {
    title: "uniqcheck — uniqueness checks in CKEditor 5",
    tagline: "A CKEditor 5 plugin and a <uniq-check> element: the text is checked in the browser and never sent anywhere.",
    editor: "CKEditor 5 with the UniqCheck plugin",
    editorNote: "Matches (copies filled, rewrites underlined with dashes, translations with dots) are highlighted with the editor's markers: the saved HTML (getData()) never changes.",
    plain: "A plain field and <uniq-check>",
    plainNote: "The same report for any textarea or contenteditable.",
    plainText:
      "A sourdough starter is just flour and water colonised by wild yeast and bacteria, yet many home bakers lose theirs within a month. Keeping it healthy is mostly about routine.",
  },
}[lang];

// A draft that borrows from the demo corpus across formatting: bold and a link inside copied
// sentences, a copied list item, a paragraph rewritten from the same article (words reordered and
// replaced: a rewrite, not a copy), and paragraphs of its own.
const drafts = {
  ru: `<h2>Как ухаживать за чугуном</h2>
<p>Мой дед жарил на одной сковороде сорок лет и ни разу её не менял.</p>
<p>Новую сковороду сначала моют <strong>горячей водой</strong> с небольшим количеством средства, чтобы убрать <a href="https://example.org/smazka">заводскую смазку</a>, и насухо вытирают. Затем тонким слоем смазывают растительным маслом всю поверхность, включая ручку и дно, и ставят в духовку вверх дном на час при температуре около двухсот градусов.</p>
<ul>
<li>Вымытую сковороду обязательно просушивают на огне несколько минут, а потом протирают салфеткой с каплей масла.</li>
<li>Наш совет: держите рядом банку крупной соли.</li>
</ul>
<p>Появилась ржавчина? Не торопитесь выбрасывать посуду. Рыжие пятна снимают металлической мочалкой до чистого металла, а затем сковороду прокаливают снова. Поначалу на ней стоит жарить что-то жирное, скажем оладьи или картофель, чтобы защитный слой окреп быстрее.</p>
<p>Сковорода, которая пережила три переезда, заслуживает места на самой видной полке.</p>`,
  en: `<h2>Living with a sourdough starter</h2>
<p>My neighbour named her starter after a jazz singer and talks to it every morning.</p>
<p>Feed it on a schedule. At room temperature a starter needs <strong>fresh flour and water</strong> every day: discard most of it, keep a spoonful, and add <a href="https://example.org/weights">equal weights</a> of flour and water. The discarded part makes excellent pancakes, so it need not go to waste.</p>
<ul>
<li>If you bake once a week, keep the jar in the fridge. Cold slows fermentation, so a weekly feeding is enough.</li>
<li>Our tip: label the jar with the date of the last feeding.</li>
</ul>
<p>Watch the starter rather than the clock. Four to eight hours after a feeding, a lively starter doubles and smells pleasantly sour. When it smells like nail polish it is hungry: feed it a larger amount of flour, or feed it more often.</p>
<p>A starter that survived three house moves deserves a shelf of its own.</p>`,
};

document.documentElement.lang = lang;
document.title = strings.title;
document.getElementById("tagline").textContent = strings.tagline;
document.getElementById("editor-title").textContent = strings.editor;
document.getElementById("editor-note").textContent = strings.editorNote;
document.getElementById("plain-title").textContent = strings.plain;
document.getElementById("plain-note").textContent = strings.plainNote;
for (const a of document.querySelectorAll("[data-lang]")) a.setAttribute("aria-current", String(a.dataset.lang === lang));

// The textarea and its <uniq-check>: the element reads `lang` when it starts, so set it first.
const plain = document.getElementById("plain");
plain.value = strings.plainText;
document.getElementById("plain-check").setAttribute("lang", lang);
await import("/pkg/element.js");

const editor = await ClassicEditor.create(document.getElementById("draft-editor"), {
  licenseKey: "GPL", // the self-hosted, GPL-licensed build: no license server, no CDN
  plugins: [Essentials, Paragraph, Heading, Bold, Italic, Link, List, BlockQuote, UniqCheck],
  toolbar: ["heading", "|", "bold", "italic", "link", "bulletedList", "numberedList", "blockQuote", "|", "undo", "redo", "|", "uniqCheck", "uniqCheckLive"],
  language: lang,
  // CKEditor's own Russian strings (an empty list is an error, hence the spread).
  ...(lang === "ru" ? { translations: [ruUi] } : {}),
  link: { defaultProtocol: "https://" },
  initialData: drafts[lang],
  uniqcheck: {
    manifestUrl,
    language: lang,
    live: false,
    panel: "#uniqcheck-panel",
  },
});
// For the browser tests and for poking around in the console.
window.editor = editor;
