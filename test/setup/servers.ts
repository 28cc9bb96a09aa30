// Vitest global setup: starts the Kafka, Pravega, schema-registry and Flink (cluster + SQL Gateway) servers the selected test files need, each
// on free ports of this run's own and with a data folder of its own, and stops them at the end. The machine may be
// shared: a test must neither use whatever answers on a default port (9092, 9090, 8081) nor disturb another run.
//
// Contract with the tests (details in server-contract.ts; other test files rely on these names):
//   KAFKA_BOOTSTRAP         127.0.0.1:<port> of the broker (also KAFKA_PORT=<port>)
//   PRAVEGA_CONTROLLER_URI  tcp://127.0.0.1:<port> of the Pravega controller
//   SCHEMA_REGISTRY_URL     http://127.0.0.1:<port>/apis/ccompat/v7 (also SCHEMA_REGISTRY_PORT=<port>)
//   SLUICE_CACHE            jar cache of scripts/*.sh (default <repo>/.cache)
//   SLUICE_RUN_DIR          this run's folder for server data, pids and logs (e.g. the secured Pravega's)
//   SLUICE_TEST_SKIP_<KAFKA|PRAVEGA|SCHEMA_REGISTRY>  why a server was not started
// A server whose address variable is already set (a developer's broker on a port of their own) is not started.
// SLUICE_TEST_SERVERS=none (or a comma list such as kafka,pravega) limits what is started.
//
// Which files need which server: the files under test/integration/<server>/ and any test file that reads the address
// variable (process.env.KAFKA_BOOTSTRAP) or imports the folder's helper (server-defs.ts). A test outside those folders
// that needs Kafka should import test/integration/kafka/broker.js (BOOTSTRAP, brokerAvailable()). Runs without such
// files (npm run test:unit) start nothing.
//
// Where a tool is missing (java; mvn while the jars are not cached yet; curl for the registry), the suites that
// need that server skip, and the closing summary lists them with the reason. In CI (CI=true) that is a failure.
// A server that should start but fails to is a failure everywhere. Ctrl-C or a killed run: a detached watchdog
// stops whatever this run started as soon as the vitest process is gone.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePortGroups } from './free-ports.js';
import { ADDRESS_VARIABLE, isCi, SKIP_VARIABLE, serverAddress, type ServerName } from './server-contract.js';
import { needsServer, SERVERS, type ServerDef } from './server-defs.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface Started {
  readonly def: ServerDef;
  readonly env: Record<string, string>;
}

function onPath(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
}

/** Runs scripts/<script> <command>, its output passed through with a prefix; resolves with exit code and output. */
function runScript(def: ServerDef, command: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [join(ROOT, 'scripts', def.script), command], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const relay = (chunk: Buffer): void => {
      output += chunk.toString();
      // Maven's quiet mode still prints colour codes; they make empty lines.
      for (const line of chunk.toString().replace(/\x1b\[[0-9;]*m/g, '').split('\n')) {
        if (line.trim()) process.stderr.write(`[${def.name}] ${line}\n`);
      }
    };
    child.stdout.on('data', relay);
    child.stderr.on('data', relay);
    child.once('error', (e) => resolve({ code: -1, output: `${output}\n${e.message}` }));
    child.once('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

/** Which servers the selected test files need. */
function neededServers(project: TestProject): Map<ServerName, string[]> {
  const paths = project.vitest.state.getPaths();
  const needed = new Map<ServerName, string[]>();
  for (const def of SERVERS) {
    const files = paths.filter((p) => {
      let text = '';
      try {
        text = readFileSync(p, 'utf8');
      } catch {
        // a file that cannot be read is judged by its path alone
      }
      return needsServer(def, relative(ROOT, p).split(sep).join('/'), text);
    });
    if (files.length) needed.set(def.name, files.map((p) => relative(ROOT, p)));
  }
  return needed;
}

function requested(): Set<string> | undefined {
  const v = process.env.SLUICE_TEST_SERVERS;
  if (v === undefined || v === '' || v === 'all') return undefined;
  return new Set(v.split(',').map((s) => s.trim()));
}

const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A detached shell that waits for this process to end, then stops every server whose pid file lies in the run
 * folder (TERM, then KILL after 30 s) and removes the folder. After a normal teardown it finds nothing to do.
 */
function startWatchdog(runDir: string): void {
  const script = `
while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done
for f in ${sq(runDir)}/*/*.pid; do
  [ -f "$f" ] || continue
  pid=$(cat "$f")
  grep -q java "/proc/$pid/cmdline" 2>/dev/null && kill -TERM "$pid" 2>/dev/null
done
for i in $(seq 60); do
  alive=0
  for f in ${sq(runDir)}/*/*.pid; do
    [ -f "$f" ] || continue
    pid=$(cat "$f"); grep -q java "/proc/$pid/cmdline" 2>/dev/null && alive=1 && [ "$i" = 60 ] && kill -KILL "$pid"
  done
  [ "$alive" = 0 ] && break
  sleep 0.5
done
${process.env.SLUICE_KEEP_RUN_DIR ? '' : `rm -rf ${sq(runDir)}`}
`;
  spawn('bash', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
}

function countTests(project: TestProject): { passed: number; failed: number; skipped: number } {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const module of project.vitest.state.getTestModules()) {
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') counts.passed++;
      else if (state === 'failed') counts.failed++;
      else counts.skipped++;
    }
  }
  return counts;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const needed = neededServers(project);
  const only = requested();
  const skipped: { server: ServerName; files: string[]; reason: string }[] = [];
  const toStart: ServerDef[] = [];
  process.env.SLUICE_CACHE ??= join(ROOT, '.cache');

  for (const def of SERVERS) {
    const files = needed.get(def.name);
    if (!files) continue;
    const given = serverAddress(def.name);
    if (given) {
      console.log(`[servers] ${def.name}: using ${ADDRESS_VARIABLE[def.name]}=${given} from the environment`);
      continue;
    }
    let reason: string | undefined;
    if (only && !only.has(def.name)) reason = `SLUICE_TEST_SERVERS=${process.env.SLUICE_TEST_SERVERS} leaves it out`;
    else {
      const missing = def.tools.filter((t) => !onPath(t));
      if (missing.length) reason = `no ${missing.join(', ')} on PATH`;
    }
    if (reason) {
      process.env[SKIP_VARIABLE[def.name]] = reason;
      skipped.push({ server: def.name, files, reason });
    } else toStart.push(def);
  }

  const started: Started[] = [];
  let runDir: string | undefined;
  if (toStart.length) {
    runDir = mkdtempSync(join(tmpdir(), 'sluice-test-servers-'));
    process.env.SLUICE_RUN_DIR = runDir;
    startWatchdog(runDir);
    // All ports picked at once, so no two servers get the same one.
    const ports = await freePortGroups(toStart.flatMap((d) => d.portGroups));
    const t0 = Date.now();
    const failures: string[] = [];
    const times: string[] = [];
    let offset = 0;
    await Promise.all(
      toStart.map(async (def) => {
        const t = Date.now();
        let mine = ports.slice(offset, (offset += def.portGroups.length));
        // Another process may take a port between our check and the server's bind: then once more on new ports.
        for (let attempt = 1; ; attempt++) {
          if (attempt > 1) mine = await freePortGroups(def.portGroups);
          const env = { ...def.scriptEnv(mine), SLUICE_CACHE: process.env.SLUICE_CACHE!, SLUICE_RUN_DIR: runDir! };
          // Without Maven the jars can still be in the cache; `fetch` says whether they are.
          if (!onPath('mvn') && (await runScript(def, 'fetch', env)).code !== 0) {
            const reason = `no mvn on PATH to fetch its jars into ${process.env.SLUICE_CACHE}`;
            process.env[SKIP_VARIABLE[def.name]] = reason;
            skipped.push({ server: def.name, files: needed.get(def.name)!, reason });
            return;
          }
          started.push({ def, env });
          const { code, output } = await runScript(def, 'start', env);
          if (code === 0) {
            Object.assign(process.env, def.testEnv(mine));
            times.push(`${def.name} ${Math.round((Date.now() - t) / 1000)} s`);
            return;
          }
          if (attempt === 1 && /taken by another process|Address already in use|BindException/.test(output)) {
            await runScript(def, 'stop', env);
            continue;
          }
          failures.push(`${def.name} did not start (scripts/${def.script} start exited ${code}):\n${output.split('\n').slice(-15).join('\n')}`);
          return;
        }
      }),
    );
    if (times.length) console.log(`[servers] ready in ${Math.round((Date.now() - t0) / 1000)} s (${times.join(', ')}, started in parallel)`);
    if (failures.length) {
      await stopAll(started, runDir);
      throw new Error(`test servers failed to start:\n${failures.join('\n')}`);
    }
  }
  if (isCi() && skipped.length) {
    await stopAll(started, runDir);
    throw new Error(`CI needs every test server, but: ${skipped.map((s) => `${s.server}: ${s.reason}`).join('; ')}`);
  }

  return async () => {
    await stopAll(started, runDir);
    for (const s of skipped) {
      console.log(`SKIPPED: ${s.server} suites (${s.files.length} files: ${s.files.join(', ')}): ${s.reason}`);
    }
    const c = countTests(project);
    console.log(`vitest: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
  };
}

async function stopAll(started: readonly Started[], runDir: string | undefined): Promise<void> {
  await Promise.all(started.map((s) => runScript(s.def, 'stop', s.env)));
  if (runDir && !process.env.SLUICE_KEEP_RUN_DIR) rmSync(runDir, { recursive: true, force: true });
}
