import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RestResponse } from './rest-handler.js';

/** The files scripts/bundle-ui.mjs writes, by the path they are served at, with their content types. */
const FILES: Readonly<Record<string, { readonly file: string; readonly type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};

/**
 * Where the built dashboard is: beside this module once compiled (dist/web/ui/, or dist/bundle/ui/ for the
 * bundled CLI), or in dist/ when this module runs from src/ (tests).
 */
function locate(): string | undefined {
  const candidates = [new URL('./ui/', import.meta.url), new URL('../../dist/web/ui/', import.meta.url)];
  for (const c of candidates) {
    const dir = fileURLToPath(c);
    if (existsSync(`${dir}index.html`) && existsSync(`${dir}app.js`)) return dir;
  }
  return undefined;
}

/** The browser dashboard's static files, read once on first request; the page itself reads the REST API. */
export class DashboardAssets {
  private dir: string | undefined | null = null;
  private readonly cache = new Map<string, Buffer>();

  /** The response for `path`, or undefined when it is not one of the dashboard's files. */
  serve(path: string): RestResponse | undefined {
    const entry = FILES[path];
    if (entry === undefined) return undefined;
    if (this.dir === null) this.dir = locate();
    if (this.dir === undefined) {
      return { status: 404, contentType: 'text/plain; charset=utf-8', body: 'The dashboard is not built: run `npm run build`. The REST API is at /jobs/overview.\n' };
    }
    let body = this.cache.get(entry.file);
    if (body === undefined) {
      body = readFileSync(`${this.dir}${entry.file}`);
      this.cache.set(entry.file, body);
    }
    return { status: 200, contentType: entry.type, body: body.toString('utf8') };
  }
}
