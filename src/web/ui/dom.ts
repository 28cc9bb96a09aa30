/** A small element builder: the dashboard needs no framework, only this. */

type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, ...children: (Node | string)[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/** Sets a node's text only when it changed, so live updates do not disturb selection or screen readers needlessly. */
export function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/** A table with a caption and header cells scoped to their columns. */
export function table(caption: string, headers: readonly string[], className = ''): { table: HTMLTableElement; body: HTMLTableSectionElement } {
  const body = h('tbody');
  const t = h('table', className === '' ? {} : { class: className }, h('caption', {}, caption), h('thead', {}, h('tr', {}, ...headers.map((x) => h('th', { scope: 'col' }, x)))), body);
  return { table: t, body };
}

/** Replaces a table body's rows with `rows` (cells as text, or nodes). */
export function fillRows(body: HTMLTableSectionElement, rows: readonly (readonly (string | Node)[])[], attrs: (i: number) => Record<string, string> = () => ({})): void {
  const existing = body.rows;
  rows.forEach((cells, i) => {
    let tr = existing[i];
    if (tr === undefined || tr.cells.length !== cells.length) {
      const fresh = h('tr', attrs(i), ...cells.map(() => h('td')));
      if (tr === undefined) body.append(fresh);
      else tr.replaceWith(fresh);
      tr = fresh;
    }
    cells.forEach((c, j) => {
      const td = tr.cells[j]!;
      if (typeof c === 'string') setText(td, c);
      else if (td.firstChild !== c) td.replaceChildren(c);
    });
  });
  while (body.rows.length > rows.length) body.deleteRow(-1);
}
