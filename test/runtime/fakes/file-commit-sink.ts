import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Row } from '../../../src/types/row.js';
import { jsonSerializer, type CommitRequest, type Committer, type Sink, type SinkWriter, type VersionedSerializer, type WriterInitContext } from '../../../src/runtime/index.js';

export interface PendingFile {
  readonly pending: string;
  readonly final: string;
}

/**
 * Exactly-once fake sink: rows go to a pending file at each barrier; the committer renames it to its
 * final name (the rename is the commit; a missing pending file with an existing final one = committed).
 */
export class FileCommitSink implements Sink<Row, PendingFile, never> {
  commits = 0;
  constructor(readonly dir: string, private readonly opts: { failCommitOnce?: { remaining: number } } = {}) {}

  createWriter(ctx: WriterInitContext): SinkWriter<Row, PendingFile, never> {
    const dir = this.dir;
    let buf: string[] = [];
    return {
      write(batch) {
        for (const r of batch) buf.push(String(r.fields[0]));
      },
      async flush() {},
      async prepareCommit() {
        if (buf.length === 0) return [];
        const id = randomUUID();
        const pending = join(dir, `.pending-${ctx.subtaskIndex}-${id}`);
        writeFileSync(pending, buf.join('\n'));
        buf = [];
        return [{ pending, final: join(dir, `part-${ctx.subtaskIndex}-${id}`) }];
      },
      async close() {},
    };
  }

  createCommitter(): Committer<PendingFile> {
    return {
      commit: async (reqs: readonly CommitRequest<PendingFile>[]) => {
        for (const r of reqs) {
          const f = this.opts.failCommitOnce;
          if (f && f.remaining > 0) {
            f.remaining--;
            r.signalFailedWithUnknownReason(new Error('injected commit failure'));
            continue;
          }
          if (existsSync(r.committable.pending)) {
            renameSync(r.committable.pending, r.committable.final);
            this.commits++;
          } else if (existsSync(r.committable.final)) r.signalAlreadyCommitted();
          else r.signalFailedWithKnownReason(new Error(`lost ${r.committable.pending}`));
        }
      },
      async close() {},
    };
  }

  getCommittableSerializer(): VersionedSerializer<PendingFile> {
    return jsonSerializer();
  }

  /** Every number in committed files. */
  committedNumbers(): number[] {
    const out: number[] = [];
    for (const f of readdirSync(this.dir)) {
      if (!f.startsWith('part-')) continue;
      const text = readFileSync(join(this.dir, f), 'utf8');
      if (text) for (const l of text.split('\n')) out.push(Number(l));
    }
    return out;
  }
}
