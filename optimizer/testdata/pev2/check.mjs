// Loads each EXPLAIN (FORMAT JSON) document named on the command line into
// PEV2's plan view (its own parser), rendered in jsdom, and prints one JSON
// line a document: whether PEV2 refused it, and the view's text.
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>', { pretendToBeVisual: true, url: 'http://localhost/' });
const w = dom.window;
for (const k of Object.getOwnPropertyNames(w)) {
  if (!(k in globalThis)) {
    try { globalThis[k] = w[k]; } catch { /* read-only */ }
  }
}
globalThis.window = w;
globalThis.document = w.document;
globalThis.navigator = w.navigator;
// jsdom lays nothing out: PEV2's size watchers get a stand-in.
globalThis.ResizeObserver = w.ResizeObserver = class { observe() {} unobserve() {} disconnect() {} };

const { createApp, nextTick } = await import('vue');
const { Plan } = await import('pev2');

for (const file of process.argv.slice(2)) {
  const el = document.createElement('div');
  document.body.appendChild(el);
  const errors = [];
  const app = createApp(Plan, { planSource: readFileSync(file, 'utf8'), planQuery: '' });
  app.config.errorHandler = (e) => errors.push(String(e));
  app.mount(el);
  await nextTick();
  await new Promise((r) => setTimeout(r, 20));
  const text = el.textContent.replace(/\s+/g, ' ');
  console.log(JSON.stringify({ file, refused: text.includes("Couldn't parse plan"), errors, text }));
  app.unmount();
  el.remove();
}
