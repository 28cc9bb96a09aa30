import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../../src/errors/sluice-error.js';
import type { FileSourceSettings } from '../../../src/connectors/filesystem/file-source.js';
import { fileSystemError } from '../../../src/connectors/filesystem/file-system-errors.js';
import { listFiles } from '../../../src/connectors/filesystem/list-files.js';
import { inputBytesAtLeast } from '../../../src/connectors/filesystem/input-size.js';
import { listPartitionSpecs } from '../../../src/connectors/filesystem/partitions.js';

function settings(root: string, more: Partial<FileSourceSettings> = {}): FileSourceSettings {
  return {
    root,
    partitionKeys: [],
    pathRegex: undefined,
    monitorIntervalMs: undefined,
    format: { kind: 'lines', decoder: () => ({}) as never },
    fields: [],
    ...more,
  };
}

function tree(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-list-'));
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'a.csv'), '1\n');
  writeFileSync(join(dir, 'sub', 'b.csv'), '22\n');
  writeFileSync(join(dir, '_hidden.csv'), '3\n');
  return dir;
}

describe('listFiles', () => {
  it('lists the visible files of a directory tree', async () => {
    const dir = tree();
    expect((await listFiles(settings(dir))).map((s) => s.path)).toEqual([join(dir, 'a.csv'), join(dir, 'sub', 'b.csv')]);
  });

  it('follows symbolic links to files and folders, as Flink’s local file system does, walking a linked folder once', async () => {
    const data = tree();
    const dir = mkdtempSync(join(tmpdir(), 'sluice-links-'));
    symlinkSync(join(data, 'a.csv'), join(dir, 'linked.csv'));
    symlinkSync(join(data, 'sub'), join(dir, 'linked-sub'));
    symlinkSync(join(data, 'gone.csv'), join(dir, 'dangling.csv'));
    // A link back to the folder itself: walked once, not for ever.
    symlinkSync(dir, join(dir, 'loop'));
    expect((await listFiles(settings(dir))).map((s) => [s.path, s.size])).toEqual([
      [join(dir, 'linked-sub', 'b.csv'), 3],
      [join(dir, 'linked.csv'), 2],
    ]);
    expect(inputBytesAtLeast(dir, undefined, 1_000)).toBe(5);
    mkdirSync(join(dir, 'parts'));
    mkdirSync(join(data, 'p=x'));
    symlinkSync(join(data, 'p=x'), join(dir, 'parts', 'p=x'));
    expect(listPartitionSpecs(join(dir, 'parts'), ['p'], '__DEFAULT_PARTITION__')).toEqual([new Map([['p', 'x']])]);
  });

  it('reads the one file a path names, even one with a hidden-looking name', async () => {
    const dir = tree();
    const [split, ...rest] = await listFiles(settings(join(dir, 'sub', 'b.csv')));
    expect(rest).toEqual([]);
    expect(split).toMatchObject({ path: join(dir, 'sub', 'b.csv'), offset: 0, size: 3, partition: [] });
    expect((await listFiles(settings(join(dir, '_hidden.csv')))).map((s) => s.size)).toEqual([2]);
  });

  it('fails a bounded source whose path does not exist, naming the path', async () => {
    const missing = join(tree(), 'nope');
    const error = await listFiles(settings(missing)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as Error).message).toBe(
      `Filesystem source: the path '${missing}' does not exist. Check the table's 'path' option (a relative path is resolved against the working directory). (ENOENT)`,
    );
  });

  it('lets a monitored source wait for a path that does not exist yet, as Flink’s continuous enumerator', async () => {
    const dir = tree();
    const missing = join(dir, 'later');
    expect(await listFiles(settings(missing, { monitorIntervalMs: 100 }))).toEqual([]);
    mkdirSync(missing);
    writeFileSync(join(missing, 'c.csv'), 'x\n');
    expect((await listFiles(settings(missing, { monitorIntervalMs: 100 }))).map((s) => s.path)).toEqual([join(missing, 'c.csv')]);
  });

  it('refuses a file path for a partitioned table', async () => {
    const dir = tree();
    await expect(listFiles(settings(join(dir, 'a.csv'), { partitionKeys: ['day'] }))).rejects.toThrow(/names a file, but the table is partitioned by day/);
  });
});

describe('fileSystemError', () => {
  const errno = (code: string, message: string): NodeJS.ErrnoException => Object.assign(new Error(message), { code });

  it('says a sink directory is read-only, naming the directory that refuses', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-ro-'));
    expect(fileSystemError(errno('EACCES', `EACCES: permission denied, open '${dir}/x'`), dir, 'write').message).toBe(
      `Filesystem sink: the output directory '${dir}' is read-only for this user (permission denied); choose a writable 'path' or change the directory's permissions. (EACCES)`,
    );
    expect(fileSystemError(errno('EACCES', 'EACCES: permission denied'), join(dir, 'a', 'b'), 'write').message).toContain(
      `cannot create the output directory '${join(dir, 'a', 'b')}': '${dir}' is read-only for this user`,
    );
    expect(fileSystemError(errno('EROFS', 'EROFS: read-only file system'), '/mnt/x', 'write').message).toContain("'/mnt/x' is on a read-only file system");
  });

  it('keeps an unknown error’s text and cause', () => {
    const cause = errno('EWEIRD', 'something odd');
    const e = fileSystemError(cause, '/x', 'read');
    expect(e.message).toBe("Filesystem source: '/x': something odd");
    expect(e.cause).toBe(cause);
  });
});
