// The browser tests' harness: a real `uniqcheck serve` over the demo corpus, Debian's Chromium
// driven by playwright-core, and a page wrapper that fails on any console error or page error.
//
// It builds nothing: pkg/ (scripts/build-pkg) and the CLI (target/debug/uniqcheck, or the binary
// named by UNIQCHECK_BIN) must exist; scripts/test builds both, then runs these tests.

import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { before, after } from "node:test";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BIN = process.env.UNIQCHECK_BIN ?? join(ROOT, "target", "debug", "uniqcheck");
export const CORPUS = join(ROOT, "demo", "corpus");
export const ARTIFACTS = join(ROOT, "tests", "e2e", "artifacts");
export const BASE_URL = "https://demo.uniqcheck.local/";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage",
];

function need(path, how) {
  if (!existsSync(path)) throw new Error(`${path} is missing: ${how} (scripts/test does it)`);
}

/** Indexes demo/corpus into a fresh store in a temporary folder; returns the db path. */
export function indexDemo() {
  need(BIN, "cargo build -p uniqcheck-cli");
  need(join(ROOT, "pkg", "worker-client.js"), "scripts/build-pkg");
  const dir = mkdtempSync(join(tmpdir(), "uniqcheck-e2e-"));
  const db = join(dir, "demo.db");
  execFileSync(BIN, ["index", CORPUS, "--db", db, "--base-url", BASE_URL], { stdio: ["ignore", "ignore", "pipe"] });
  return { db, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts `uniqcheck serve` on an ephemeral loopback port; resolves once it prints
 * `listening on http://127.0.0.1:PORT` (docs/SERVER.md: the one line on stdout), publishing the
 * bilingual table with its packs as the demo does. `extraArgs` go to `uniqcheck serve` (e.g. `--cors`).
 */
export function startServer(db, extraArgs = []) {
  // With the bilingual table, as scripts/start serves the demo: the packs publish it.
  const args = ["serve", "--db", db, "--addr", "127.0.0.1:0", "--no-auth", "--quiet", "--bilingual", "data/bilingual/en-ru.uqbl"];
  const child = spawn(BIN, [...args, ...extraArgs], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`uniqcheck serve did not start in 20 s:\n${stderr}`));
    }, 20_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          stop: () => stop(child),
          stderr: () => stderr,
        });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`uniqcheck serve exited (${code}) before listening:\n${stderr}`));
    });
  });
}

function stop(child) {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * A new context and page; every console error and page error is recorded, and `problems()`
 * lists them ("console should be empty"). `initScript` runs in the page before its own scripts.
 */
export async function openPage(browser, url, { locale = "ru-RU", viewport = { width: 1280, height: 800 }, initScript } = {}) {
  const context = await browser.newContext({ locale, viewport });
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  const problems = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console.error: ${msg.text()}`);
  });
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("worker", (worker) => {
    worker.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`worker console.error: ${msg.text()}`);
    });
  });
  await page.goto(url);
  return { context, page, problems: () => problems.slice() };
}

/**
 * An init script (`initScript` of openPage): `window.__checks` counts the checks the page hands to
 * its Web Workers, as they are handed over (a "check" message posted to any Worker).
 */
export function countChecks() {
  window.__checks = 0;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message?.method === "check") window.__checks += 1;
    return post.call(this, message, ...rest);
  };
}

/** Opens `url` in a fresh page, runs `fn(page)`, fails if the console saw an error, and closes it. */
export async function inPage(browser, url, options, fn) {
  const { context, page, problems } = await openPage(browser, url, options);
  try {
    await fn(page);
    assert.deepEqual(problems(), [], "the console should be empty");
  } finally {
    await context.close();
  }
}

/**
 * The demo for a test file: before its tests, run `requires` (a check that throws), index the demo
 * corpus, serve it and launch Chromium; after them, stop all three. The returned object's `store`,
 * `server` and `browser` are set once `before` has run.
 */
export function useDemo({ requires } = {}) {
  const demo = {};
  before(async () => {
    requires?.();
    demo.store = indexDemo();
    demo.server = await startServer(demo.store.db);
    demo.browser = await launchBrowser();
  });
  after(async () => {
    await demo.browser?.close();
    await demo.server?.stop();
    demo.store?.cleanup();
  });
  return demo;
}

/** Waits until the packs are loaded (the footer names the corpus). */
export async function waitReady(page) {
  await page.waitForFunction(() => document.getElementById("corpus-info").textContent.trim() !== "", null, {
    timeout: 20_000,
  });
  await hookEditor(page);
}

/**
 * Gives the page `window.__draft()`, the editor's view (CodeMirror's EditorView, found from its
 * DOM through the page's own copy of @codemirror/view), for the helpers below. Idempotent.
 */
export async function hookEditor(page) {
  await page.evaluate(async () => {
    if (window.__draft) return;
    const { EditorView } = await import("@codemirror/view");
    window.__draft = () => EditorView.findFromDOM(document.getElementById("editor"));
  });
}

/** The editor's text. */
export async function draftText(page) {
  await hookEditor(page);
  return page.evaluate(() => window.__draft().state.doc.toString());
}

/** Puts the caret at UTF-16 offset `at` and focuses the editor. */
export async function setCaret(page, at) {
  await hookEditor(page);
  await page.evaluate((i) => {
    const view = window.__draft();
    view.focus();
    view.dispatch({ selection: { anchor: i } });
  }, at);
}

/** Scrolls the editor's text: "top", "middle" or "end"; resolves once it has been redrawn there. */
export async function scrollDraft(page, where) {
  await page.$eval(
    "#editor .cm-scroller",
    (s, w) => (s.scrollTop = w === "top" ? 0 : w === "end" ? s.scrollHeight : s.scrollHeight / 2 - s.clientHeight / 2),
    where,
  );
  // The editor draws the lines now in view on the scroll event's next frame.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * Waits until the page shows a report for exactly the editor's current text (the print copy, built
 * frame by frame, holds all of it). A long wait (a megabyte's check) polls twice a second instead
 * of every frame, so as not to weigh on them.
 */
export async function waitReport(page, timeout = 20_000) {
  await hookEditor(page);
  await page.waitForFunction(
    () => {
      const v = document.getElementById("score-value").textContent;
      const printed = document.getElementById("mirror").textContent;
      return /\d/.test(v) && printed === window.__draft().state.doc.toString() && !document.getElementById("export-json").disabled;
    },
    null,
    { timeout, polling: timeout > 20_000 ? 500 : "raf" },
  );
}

/** The figure as a number (either locale's decimal separator). */
export async function uniqueness(page) {
  const text = await page.textContent("#score-value");
  return Number(text.replace(/[^\d,.]/g, "").replace(",", "."));
}

/** The figures as numbers: { uniqueness, originality }. */
export async function figures(page) {
  const number = (s) => Number(s.replace(/[^\d,.]/g, "").replace(",", "."));
  return {
    uniqueness: number(await page.textContent("#score-value")),
    originality: number(await page.textContent("#originality-value")),
  };
}

/** The kinds of the page's <mark>s (www/js/editor.js) by their class; a mark with neither is a copy. */
const MARK_CLASSES = { rw: "rewrite", tr: "translation" };

/**
 * The <mark>s the editor shows (the lines in view: all of a short text), with their UTF-16
 * offsets in the text (the editor's own mapping from DOM to text) and their kind: "copy" (a
 * fragment), "rewrite" or "translation". A mark the flag of a hidden character splits is one
 * mark here.
 */
export async function marks(page) {
  await hookEditor(page);
  return page.evaluate((classes) => {
    const kindOf = (el) => Object.entries(classes).find(([c]) => el.classList.contains(c))?.[1] ?? "copy";
    const view = window.__draft();
    const out = [];
    let last = null;
    for (const el of view.contentDOM.querySelectorAll("mark")) {
      const start = view.posAtDOM(el, 0);
      const text = el.textContent;
      const kind = kindOf(el);
      if (last && last.end === start && last.key === el.dataset.start + kind) {
        last.end += text.length;
        last.text += text;
      } else {
        last = { key: el.dataset.start + kind, start, end: start + text.length, text, kind };
        out.push(last);
      }
    }
    return out.map(({ key, ...m }) => m);
  }, MARK_CLASSES);
}

/** The <mark>s of the print copy (all of the text), like marks(). */
export async function printedMarks(page) {
  return page.evaluate((classes) => {
    const kindOf = (el) => Object.entries(classes).find(([c]) => el.classList.contains(c))?.[1] ?? "copy";
    const out = [];
    let at = 0;
    let last = null;
    const walker = document.createTreeWalker(document.getElementById("mirror"), NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const mark = node.parentElement.closest("mark");
      const len = node.data.length;
      if (mark && last?.el === mark) {
        last.end += len;
        last.text += node.data;
      } else if (mark) {
        last = { el: mark, start: at, end: at + len, text: node.data, kind: kindOf(mark) };
        out.push(last);
      }
      at += len;
    }
    return out.map(({ el, ...m }) => m);
  }, MARK_CLASSES);
}

/**
 * A draft that reuses a demo article three ways: a paragraph of its own, one paragraph copied
 * verbatim, and three rewritten (in every sentence each pair of neighbouring words swapped, so no
 * four content words stay in order, and some words replaced by synonyms): what a copywriter's
 * "rewrite" of a source looks like to a checker. Returns the paragraphs and the joined text.
 */
export function rewrittenDraft() {
  const { title, paragraphs } = article("ru/chugunnaya-skovoroda.html");
  const swaps = { сковороду: "посуду", ржавчина: "коррозия", пятна: "следы", жарить: "готовить", быстрее: "скорее", нельзя: "не стоит" };
  const rewrite = (p) =>
    p
      .split(/(?<=[.!?])\s+/)
      .map((sentence) => {
        const words = sentence.replace(/[.!?]$/, "").toLowerCase().split(" ");
        const swapped = words.map((_, i) => words[i % 2 ? i - 1 : Math.min(i + 1, words.length - 1)]);
        const out = swapped.map((w) => swaps[w.replace(/[,:]$/, "")] ? swaps[w.replace(/[,:]$/, "")] + w.slice(w.replace(/[,:]$/, "").length) : w).join(" ");
        return `${out[0].toUpperCase()}${out.slice(1)}.`;
      })
      .join(" ");
  const own =
    "Моя бабушка пекла на такой сковороде блины каждое воскресенье, и за полвека дно стало гладким, как стекло. Соседи завидовали и просили одолжить её на праздники.";
  const copied = paragraphs[1];
  const rewritten = [paragraphs[2], paragraphs[3], paragraphs[4]].map(rewrite);
  const parts = [own, copied, ...rewritten];
  return { title, own, copied, rewritten, parts, text: parts.join("\n\n") };
}

/**
 * A draft translated from a demo article: a sentence of our own on another topic, then an English
 * translation, as a translator would write it, of five consecutive sentences of a Russian one
 * (demo/corpus/ru/domashnij-khleb.html: its second paragraph and the first two sentences of its
 * third). Nothing in it is copied or rewritten: the engine can find it only as a translation,
 * through the bilingual table the server publishes with its packs (startServer).
 */
export function translatedDraft() {
  const { title } = article("ru/domashnij-khleb.html");
  const own = "Last summer our family drove along the coast of Norway and watched whales from a small fishing boat.";
  const translated =
    "Stir the yeast into the water and leave it for ten minutes, until a foam appears on the surface. " +
    "Mix the flour with the salt, pour in the water and stir with a spoon until you get an even, sticky mass. " +
    "Kneading by hand is not necessary: a dough with high moisture gains strength by itself during fermentation. " +
    "Cover the bowl with cling film and leave it in a warm place for one and a half to two hours. " +
    "During this time the dough should roughly double in size.";
  const parts = [own, translated];
  return { title, url: `${BASE_URL}ru/domashnij-khleb.html`, own, translated, parts, text: parts.join("\n\n") };
}

/** Pastes like a user pasting from a web page: HTML and plain-text flavours on the clipboard. */
export async function paste(page, text, html = `<div style="color:red"><b>${text}</b></div>`) {
  await page.focus("#draft");
  await page.evaluate(
    ([plain, markup]) => {
      const data = new DataTransfer();
      data.setData("text/html", markup);
      data.setData("text/plain", plain);
      const event = new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true });
      document.getElementById("draft").dispatchEvent(event);
    },
    [text, html],
  );
}

/** The paragraphs of a demo article (an HTML file of demo/corpus) and its title. */
export function article(rel) {
  const html = readFileSync(join(CORPUS, rel), "utf8");
  const decode = (s) => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
  const title = decode(/<title>(.*?)<\/title>/s.exec(html)[1]);
  const paragraphs = [...html.matchAll(/<p>(.*?)<\/p>/gs)].map((m) => decode(m[1]));
  return { title, paragraphs };
}

export function demoArticles() {
  return readdirSync(CORPUS, { recursive: true }).filter((f) => String(f).endsWith(".html"));
}

export function artifact(name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}
