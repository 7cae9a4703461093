import { describe, expect, it } from 'vitest';
import { ApiError, type ApiEvent } from '../../../src-shared/api';
import type { ArchiveRunner, ExportArchive } from './export-archive';
import { ExportJobs } from './export-jobs';

/** A runner the test finishes by hand, as a worker would: progress first, then the archive (or null when stopped). */
function manualRunner() {
  let finish: (archive: ExportArchive | null) => void = () => {};
  let signal: AbortSignal | null = null;
  const runner: ArchiveRunner = (_request, runSignal, onProgress) => {
    signal = runSignal;
    onProgress(0, 2);
    return new Promise((resolve) => {
      finish = resolve;
      runSignal.addEventListener('abort', () => resolve(null));
    });
  };
  return { runner, finish: (archive: ExportArchive | null) => finish(archive), signal: () => signal };
}

const ZIP = { bytes: Uint8Array.from([1, 2, 3, 4, 5, 6, 7]), conversations: 2, messages: 9 };

describe('the exports this process runs and holds', () => {
  it('hand a finished zip out in pieces, then let it go', async () => {
    const manual = manualRunner();
    const events: ApiEvent[] = [];
    const jobs = new ExportJobs({ runArchive: manual.runner, emit: (event) => events.push(event), now: () => new Date('2026-12-01T12:00:00Z'), chunkBytes: 3 });
    const answer = jobs.exportAll('e1', { format: 'md' });
    manual.finish(ZIP);
    expect(await answer).toEqual({
      outcome: 'done',
      exportId: 'e1',
      filename: 'anybrain-conversations-md-2026-12-01.zip',
      mimeType: 'application/zip',
      bytes: 7,
      conversations: 2,
      messages: 9,
    });
    expect(events).toEqual([{ type: 'export-progress', exportId: 'e1', done: 0, total: 2 }]);
    expect(jobs.read('e1', 0)).toEqual({ exportId: 'e1', offset: 0, data: Buffer.from([1, 2, 3]).toString('base64'), nextOffset: 3 });
    expect(jobs.read('e1', 3)).toEqual({ exportId: 'e1', offset: 3, data: Buffer.from([4, 5, 6]).toString('base64'), nextOffset: 6 });
    expect(() => jobs.read('e1', 8)).toThrow('The export is 7 bytes; offset 8 is past its end.');
    expect(jobs.read('e1', 6)).toEqual({ exportId: 'e1', offset: 6, data: Buffer.from([7]).toString('base64'), nextOffset: null });
    expect(() => jobs.read('e1', 0)).toThrow(ApiError);
  });

  it('run one at a time, and a cancelled one answers cancelled and keeps nothing', async () => {
    const manual = manualRunner();
    const jobs = new ExportJobs({ runArchive: manual.runner, emit: () => {} });
    const answer = jobs.exportAll('e1', { format: 'json' });
    await expect(jobs.exportAll('e2', { format: 'json' })).rejects.toThrow('An export of all conversations is already running.');
    await expect(jobs.exportAll('e1', { format: 'json' })).rejects.toThrow('An export named e1 already exists; name each export anew.');
    expect(jobs.cancel('e1')).toBe(true);
    expect(manual.signal()?.aborted).toBe(true);
    expect(await answer).toEqual({ outcome: 'cancelled', exportId: 'e1' });
    expect(() => jobs.read('e1', 0)).toThrow(/No finished export named e1 is waiting/);
    expect(jobs.cancel('e1')).toBe(false);
  });

  it('let go of a finished zip nobody reads when it is cancelled, and of everything when disposed', async () => {
    const manual = manualRunner();
    const jobs = new ExportJobs({ runArchive: manual.runner, emit: () => {} });
    const first = jobs.exportAll('e1', { format: 'json' });
    manual.finish(ZIP);
    await first;
    expect(jobs.cancel('e1')).toBe(true);
    expect(() => jobs.read('e1', 0)).toThrow(/No finished export named e1/);

    const second = jobs.exportAll('e2', { format: 'json' });
    await jobs.dispose();
    expect(await second).toEqual({ outcome: 'cancelled', exportId: 'e2' });
    await expect(jobs.exportAll('e3', { format: 'json' })).rejects.toThrow('Anybrain is closing.');
  });
});
