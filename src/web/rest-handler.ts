import { randomBytes } from 'node:crypto';
import type { JobRegistry, RegisteredJob } from '../api/job-registry.js';
import { maskSecrets } from '../config/secrets.js';
import { jobMetricFamilies } from './job-metrics.js';
import { BackpressureTracker } from './backpressure.js';
import { aggregatedSubtaskMetrics, describeError, jobCheckpoints, subtaskTimes, jobDetails, jobExceptions, jobLive, jobsList, jobsOverview, vertexMetrics, vertexWatermarks } from './job-views.js';
import { jobConfig, jobPlan, jobSql } from './job-info-views.js';
import { formatPrometheus, PROMETHEUS_CONTENT_TYPE } from './prometheus.js';
import { JobRates } from './rate-tracker.js';
import { vertexDetails } from './vertex-details.js';

export interface RestRequest {
  readonly method: string;
  /** Path and query, as in an HTTP request line: `/jobs/abc?mode=cancel`. */
  readonly url: string;
  readonly body: string;
}

export interface RestResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A stop-with-savepoint started by `POST /jobs/<id>/stop`, polled at `/jobs/<id>/savepoints/<trigger>`. */
interface Trigger {
  jobId: string;
  location: string | undefined;
  failure: string | undefined;
}

function json(status: number, value: unknown): RestResponse {
  return { status, contentType: JSON_TYPE, body: JSON.stringify(value) };
}

/** Flink's error body: `{"errors": [...]}`. */
function error(status: number, message: string): RestResponse {
  return json(status, { errors: [message] });
}

/**
 * Routes REST requests against a session's jobs, independent of the HTTP server so it can be tested
 * without sockets. Paths and bodies follow Flink's REST API where Sluice has the same concept.
 */
export class RestHandler {
  private readonly triggers = new Map<string, Trigger>();
  /** Sampled by the server every second and on each request, for the records-per-second metrics. */
  private readonly rates: JobRates;
  /** Sampled only by the server's timer, so that requests do not weigh the ratio. */
  private readonly backpressure: BackpressureTracker;

  /** `config` returns the session configuration as raw strings; its secrets are masked before they leave. */
  constructor(
    private readonly jobs: JobRegistry,
    private readonly config: () => Readonly<Record<string, string>> = () => ({}),
    /** The clock rates are sampled by (tests pass their own). */
    private readonly now: () => number = Date.now,
  ) {
    this.rates = new JobRates(jobs);
    this.backpressure = new BackpressureTracker(jobs);
  }

  async handle(req: RestRequest): Promise<RestResponse> {
    const url = new URL(req.url, 'http://localhost');
    const parts = url.pathname.split('/').filter((p) => p !== '');
    const method = req.method.toUpperCase();
    this.rates.sample(this.now());
    if (parts.length === 1 && parts[0] === 'metrics') {
      if (method !== 'GET') return methodNotAllowed(method, url.pathname);
      return { status: 200, contentType: PROMETHEUS_CONTENT_TYPE, body: formatPrometheus(jobMetricFamilies(this.jobs.list(), this.rates)) };
    }
    if (parts.length === 2 && parts[0] === 'jobmanager' && parts[1] === 'config') {
      if (method !== 'GET') return methodNotAllowed(method, url.pathname);
      const masked = maskSecrets(this.config());
      return json(200, Object.keys(masked).sort().map((key) => ({ key, value: masked[key] })));
    }
    if (parts[0] !== 'jobs') return error(404, `Not found: ${url.pathname}`);
    if (parts.length === 1 || (parts.length === 2 && parts[1] === 'overview')) {
      if (method !== 'GET') return methodNotAllowed(method, url.pathname);
      return json(200, parts.length === 1 ? jobsList(this.jobs.list()) : jobsOverview(this.jobs.list()));
    }
    const job = this.jobs.get(parts[1]!);
    if (job === undefined) return error(404, `Job ${parts[1]} not found.`);
    const sub = parts.slice(2);
    if (sub.length === 0) {
      if (method === 'GET') return json(200, jobDetails(job));
      if (method === 'PATCH') return this.cancel(job, url.searchParams.get('mode'));
      return methodNotAllowed(method, url.pathname);
    }
    if (sub.length === 1 && sub[0] === 'config' && method === 'GET') return json(200, jobConfig(job));
    if (sub.length === 1 && sub[0] === 'plan' && method === 'GET') return json(200, jobPlan(job));
    if (sub.length === 1 && sub[0] === 'sql' && method === 'GET') return json(200, jobSql(job));
    if (sub.length === 1 && sub[0] === 'checkpoints' && method === 'GET') return json(200, jobCheckpoints(job));
    if (sub.length === 1 && sub[0] === 'exceptions' && method === 'GET') return json(200, jobExceptions(job));
    if (sub.length === 1 && sub[0] === 'live' && method === 'GET') return json(200, jobLive(job, this.rates, this.backpressure));
    if (sub.length === 1 && sub[0] === 'stop' && method === 'POST') return this.stop(job, req.body);
    if (sub.length === 2 && sub[0] === 'savepoints' && method === 'GET') return this.savepointStatus(job, sub[1]!);
    if (sub.length === 2 && sub[0] === 'vertices' && method === 'GET') {
      const details = vertexDetails(job, sub[1]!, this.now());
      return details === undefined ? error(404, `Vertex ${sub[1]} of job ${job.client.jobId} not found.`) : json(200, details);
    }
    if (sub.length === 3 && sub[0] === 'vertices' && sub[2] === 'metrics' && method === 'GET') {
      const get = url.searchParams.get('get');
      const values = vertexMetrics(job, sub[1]!, get === null ? undefined : get.split(',').filter((g) => g !== ''), this.rates);
      return values === undefined ? error(404, `Vertex ${sub[1]} of job ${job.client.jobId} not found.`) : json(200, values);
    }
    if (sub.length === 4 && sub[0] === 'vertices' && sub[2] === 'subtasks' && sub[3] === 'metrics' && method === 'GET') {
      const get = url.searchParams.get('get');
      const values = aggregatedSubtaskMetrics(job, sub[1]!, get === null ? undefined : get.split(',').filter((g) => g !== ''), this.rates);
      return values === undefined ? error(404, `Vertex ${sub[1]} of job ${job.client.jobId} not found.`) : json(200, values);
    }
    if (sub.length === 3 && sub[0] === 'vertices' && sub[2] === 'watermarks' && method === 'GET') {
      const values = vertexWatermarks(job, sub[1]!);
      return values === undefined ? error(404, `Vertex ${sub[1]} of job ${job.client.jobId} not found.`) : json(200, values);
    }
    if (sub.length === 3 && sub[0] === 'vertices' && sub[2] === 'backpressure' && method === 'GET') {
      const v = job.client.metrics().vertices.find((x) => x.vertexId === sub[1]);
      const value = this.backpressure.view(job, sub[1]!, (i) => {
        const s = v?.subtasks?.[i];
        return s === undefined ? undefined : subtaskTimes(s, job.client.jobId, sub[1]!, i, this.rates);
      });
      return value === undefined ? error(404, `Vertex ${sub[1]} of job ${job.client.jobId} not found.`) : json(200, value);
    }
    return error(404, `Not found: ${url.pathname}`);
  }

  /** Records the counters for the rates and the output queues for back-pressure; the server calls this every second. */
  sample(): void {
    const now = this.now();
    this.rates.sample(now);
    this.backpressure.sample(now);
  }

  private cancel(job: RegisteredJob, mode: string | null): RestResponse {
    if (mode !== null && mode !== 'cancel') return error(400, `Unsupported mode '${mode}': only 'cancel' is supported (use POST /jobs/<id>/stop to stop with a savepoint).`);
    const state = job.client.status();
    if (state !== 'RUNNING' && state !== 'CREATED') return error(409, `Job ${job.client.jobId} is ${state} and cannot be canceled.`);
    // Accepted now; the job reaches CANCELED shortly after, as with Flink.
    void job.client.cancel().catch(() => undefined);
    return json(202, {});
  }

  private stop(job: RegisteredJob, body: string): RestResponse {
    let parsed: unknown;
    try {
      parsed = body.trim() === '' ? {} : JSON.parse(body);
    } catch {
      return error(400, 'The request body is not valid JSON.');
    }
    const dir = (parsed as { targetDirectory?: unknown } | null)?.targetDirectory;
    if (typeof dir !== 'string' || dir === '') return error(400, "The request body needs 'targetDirectory': the directory to write the savepoint into.");
    const state = job.client.status();
    if (state !== 'RUNNING') return error(409, `Job ${job.client.jobId} is ${state}; only a running job can be stopped with a savepoint.`);
    const id = randomBytes(16).toString('hex');
    const trigger: Trigger = { jobId: job.client.jobId, location: undefined, failure: undefined };
    this.triggers.set(id, trigger);
    job.client.stopWithSavepoint(dir).then(
      (location) => {
        trigger.location = location;
      },
      (e: unknown) => {
        trigger.failure = describeError(e);
      },
    );
    return json(202, { 'request-id': id });
  }

  private savepointStatus(job: RegisteredJob, triggerId: string): RestResponse {
    const t = this.triggers.get(triggerId);
    if (t === undefined || t.jobId !== job.client.jobId) return error(404, `Savepoint request ${triggerId} of job ${job.client.jobId} not found.`);
    if (t.location === undefined && t.failure === undefined) return json(200, { status: { id: 'IN_PROGRESS' } });
    return json(200, {
      status: { id: 'COMPLETED' },
      operation: t.failure === undefined ? { location: t.location } : { 'failure-cause': { 'stack-trace': t.failure } },
    });
  }
}

function methodNotAllowed(method: string, path: string): RestResponse {
  return error(405, `Method ${method} is not allowed on ${path}.`);
}
