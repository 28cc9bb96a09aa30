import { ApiError } from './api.js';
import { h, setText } from './dom.js';
import { JobPage } from './job-page.js';
import { ListPage } from './list-page.js';

/** How often the open page asks the REST API for fresh numbers. */
const POLL_MS = 1000;

interface Page {
  readonly element: HTMLElement;
  refresh(): Promise<void>;
  dispose(): void;
}

const main = document.getElementById('app')!;
const status = document.getElementById('connection')!;
let page: Page | undefined;
let timer: number | undefined;
let generation = 0;

/** `#/jobs/<id>` shows a job; anything else the list. */
function route(): void {
  page?.dispose();
  const m = /^#\/jobs\/([0-9a-f]{32})$/.exec(location.hash);
  page = m === null ? new ListPage() : new JobPage(m[1]!);
  main.replaceChildren(page.element);
  if (timer !== undefined) clearTimeout(timer);
  void poll(++generation);
}

/** Refreshes the page, then again after POLL_MS, until the route changes; a failed refresh says so and retries. */
async function poll(gen: number): Promise<void> {
  const current = page!;
  try {
    await current.refresh();
    setText(status, `Live · updated ${new Date().toLocaleTimeString('en-GB', { hour12: false })}`);
    status.className = 'ok';
  } catch (e) {
    setText(status, e instanceof ApiError ? e.message : `Cannot reach sluice: ${(e as Error).message}`);
    status.className = 'error';
  }
  if (gen === generation) timer = window.setTimeout(() => void poll(gen), POLL_MS);
}

window.addEventListener('hashchange', route);
document.getElementById('noscript')?.remove();
main.append(h('p', {}, 'Loading…'));
route();
