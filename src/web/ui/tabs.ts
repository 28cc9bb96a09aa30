import { h } from './dom.js';

/**
 * A tab list (WAI-ARIA tabs pattern): one panel shown at a time, so a job with many vertices does not push
 * its checkpoints and exceptions a long scroll away. Arrow keys move between tabs; each tab's id is
 * `tab-<key>` and its panel's `panel-<key>`.
 */
export class Tabs<K extends string> {
  readonly element: HTMLElement;
  private readonly tabs = new Map<K, HTMLButtonElement>();
  private readonly panels = new Map<K, HTMLElement>();
  private current: K;

  constructor(
    label: string,
    entries: readonly { readonly key: K; readonly title: string; readonly panel: HTMLElement }[],
    private readonly onShow: (key: K) => void = () => undefined,
  ) {
    const list = h('div', { role: 'tablist', 'aria-label': label, class: 'tablist' });
    const panels: HTMLElement[] = [];
    for (const e of entries) {
      const tab = h('button', { type: 'button', role: 'tab', id: `tab-${e.key}`, 'aria-controls': `panel-${e.key}` }, e.title);
      tab.addEventListener('click', () => this.show(e.key));
      tab.addEventListener('keydown', (ev) => this.onKey(ev, e.key));
      list.append(tab);
      e.panel.id = `panel-${e.key}`;
      e.panel.setAttribute('role', 'tabpanel');
      e.panel.setAttribute('aria-labelledby', `tab-${e.key}`);
      panels.push(e.panel);
      this.tabs.set(e.key, tab);
      this.panels.set(e.key, e.panel);
    }
    this.element = h('div', { class: 'tabs' }, list, ...panels);
    this.current = entries[0]!.key;
    this.show(this.current);
  }

  get selected(): K {
    return this.current;
  }

  /** Changes a tab's title (e.g. a count in it) without touching the panel. */
  setTitle(key: K, title: string): void {
    const tab = this.tabs.get(key)!;
    if (tab.textContent !== title) tab.textContent = title;
  }

  show(key: K): void {
    this.current = key;
    for (const [k, tab] of this.tabs) {
      const on = k === key;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      this.panels.get(k)!.hidden = !on;
    }
    this.onShow(key);
  }

  private onKey(ev: KeyboardEvent, key: K): void {
    if (ev.key !== 'ArrowRight' && ev.key !== 'ArrowLeft') return;
    const keys = [...this.tabs.keys()];
    const next = keys[(keys.indexOf(key) + (ev.key === 'ArrowRight' ? 1 : keys.length - 1)) % keys.length]!;
    this.show(next);
    this.tabs.get(next)!.focus();
    ev.preventDefault();
  }
}
