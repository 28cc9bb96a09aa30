import { mkdtempSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newestCheckpoint } from '../../src/cli/resume.js';
import { writeCheckpoint } from '../../src/runtime/checkpoint/checkpoint-storage.js';
import type { CompletedCheckpoint } from '../../src/runtime/checkpoint/completed-checkpoint.js';

const checkpoint = (id: number): CompletedCheckpoint => ({
  jobId: 'c'.repeat(32), checkpointId: id, isSavepoint: false, timestamp: id, parallelism: new Map([['t', 1]]),
  enumerators: new Map(), committables: [], path: undefined, layout: 'vertex', maxParallelism: 128,
  vertices: new Map([['t#0', { finished: false, splits: undefined, operators: [new Uint8Array(64).fill(id)], writerState: undefined }]]),
});

describe('--resume <checkpoint root>', () => {
  it('passes over a torn newest checkpoint with a warning that names it, and resumes from the one before', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sluice-resume-'));
    const jobDir = join(root, 'c'.repeat(32));
    for (const n of [4, 5]) await writeCheckpoint(join(jobDir, `chk-${n}`), checkpoint(n));
    truncateSync(join(jobDir, 'chk-5', 'vertex-0.state'), 10);
    const warnings: string[] = [];
    expect(await newestCheckpoint(root, (m) => warnings.push(m))).toBe(join(jobDir, 'chk-4'));
    expect(warnings).toEqual([expect.stringContaining(`Skipping checkpoint '${join(jobDir, 'chk-5')}': its state file 'vertex-0.state' has 10 bytes`)]);
  });
});
