import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { WorkerHttpTransport } from '../../../src/formats/avro-confluent/sync-http.js';

// The server must run in another process: the transport blocks this thread until the answer is there.
const SERVER = `
const http = require('node:http');
const s = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    if (req.url === '/slow') return setTimeout(() => res.end('late'), 3000);
    res.writeHead(req.url === '/missing' ? 404 : 200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization ?? null, body }));
  });
});
s.listen(0, '127.0.0.1', () => console.log(s.address().port));
`;

describe('WorkerHttpTransport', () => {
  let server: ChildProcess;
  let base: string;
  const transport = new WorkerHttpTransport();

  beforeAll(async () => {
    server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await once(server.stdout!, 'data')) as [Buffer];
    base = `http://127.0.0.1:${line.toString().trim()}`;
  });

  afterAll(() => {
    transport.close();
    server.kill();
  });

  it('answers synchronously with status and body, sending method, headers and body', () => {
    const res = transport.request({ method: 'POST', url: `${base}/subjects/s/versions`, headers: { Authorization: 'Basic x' }, body: '{"a":1}', timeoutMs: 5000 });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ method: 'POST', url: '/subjects/s/versions', auth: 'Basic x', body: '{"a":1}' });
    expect(transport.request({ method: 'GET', url: `${base}/missing`, headers: {}, timeoutMs: 5000 }).status).toBe(404);
  });

  it('throws on a refused connection and on a timeout, and stays usable after', () => {
    expect(() => transport.request({ method: 'GET', url: 'http://127.0.0.1:9/x', headers: {}, timeoutMs: 2000 })).toThrow(/ECONNREFUSED/);
    expect(() => transport.request({ method: 'GET', url: `${base}/slow`, headers: {}, timeoutMs: 300 })).toThrow(/timed out|no answer/);
    expect(transport.request({ method: 'GET', url: `${base}/ok`, headers: {}, timeoutMs: 5000 }).status).toBe(200);
  });
});
