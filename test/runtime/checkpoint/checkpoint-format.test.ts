import { describe, expect, it } from 'vitest';
import { ExecutionError } from '../../../src/errors/sluice-error.js';
import { CHECKPOINT_METADATA_FORMAT, checkMetadataFormat } from '../../../src/runtime/checkpoint/checkpoint-format.js';

function errorOf(f: () => void): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('checkpoint metadata format', () => {
  it('accepts every format released and the current one', () => {
    expect(() => checkMetadataFormat('sluice-checkpoint-v1', '/ckp/chk-1')).not.toThrow();
    expect(() => checkMetadataFormat('sluice-checkpoint-v2', '/ckp/chk-1')).not.toThrow();
    expect(() => checkMetadataFormat(CHECKPOINT_METADATA_FORMAT, '/ckp/chk-1')).not.toThrow();
  });

  it('refuses a newer format, naming the path, the format found and what this version reads', () => {
    const e = errorOf(() => checkMetadataFormat('sluice-checkpoint-v7', '/sp/savepoint-ab12-cd'));
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toBe(
      "Cannot restore from '/sp/savepoint-ab12-cd': its _metadata has format 'sluice-checkpoint-v7'; this version of Sluice reads 'sluice-checkpoint-v1', 'sluice-checkpoint-v2', 'sluice-checkpoint-v3', 'sluice-checkpoint-v4', 'sluice-checkpoint-v5'. It was probably written by a newer Sluice.",
    );
  });

  it('refuses metadata without a format or with a foreign one', () => {
    expect(errorOf(() => checkMetadataFormat(undefined, '/x')).message).toMatch(/^Cannot restore from '\/x': its _metadata has no format field;/);
    expect(errorOf(() => checkMetadataFormat(3, '/x')).message).toMatch(/has format 3;/);
    const foreign = errorOf(() => checkMetadataFormat('flink-1.18', '/x'));
    expect(foreign).toBeInstanceOf(ExecutionError);
    expect(foreign.message).toContain("has format 'flink-1.18'");
    expect(foreign.message).not.toContain('newer Sluice');
  });
});
