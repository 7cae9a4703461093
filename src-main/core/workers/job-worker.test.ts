import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startJobWorker, type JobWorker } from './job-worker';

const started: JobWorker<unknown, unknown>[] = [];
afterEach(async () => {
  for (const worker of started.splice(0)) await worker.close();
});

function worker<Job, Answer>(source: string, closeTimeLimitMs?: number): JobWorker<Job, Answer> {
  const made = startJobWorker<Job, Answer>({ name: 'the test worker', source, ...(closeTimeLimitMs === undefined ? {} : { closeTimeLimitMs }) });
  started.push(made as JobWorker<unknown, unknown>);
  return made;
}

const DOUBLING = `
function answerJob(job) {
  if (job < 0) throw new Error('no negative numbers');
  return job * 2;
}
function closeWorker() {}
`;

/** Runs `body` as the whole program of a fresh Node process, the way a command's entry runs, and answers its exit. */
function exitOf(body: string): { code: number | null; stdout: string; stderr: string } {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-job-worker-'));
  try {
    const entry = join(folder, 'entry.mts');
    writeFileSync(entry, `import { startJobWorker } from ${JSON.stringify(join(import.meta.dirname, 'job-worker.ts'))};\n${body}`);
    const ended = spawnSync(process.execPath, ['--import', 'tsx', entry], { encoding: 'utf8', timeout: 60_000 });
    return { code: ended.status, stdout: ended.stdout, stderr: ended.stderr };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('a job worker', () => {
  it('answers jobs in order, and rejects the ones the worker refuses', async () => {
    const doubling = worker<number, number>(DOUBLING);
    await expect(Promise.all([doubling.run(1), doubling.run(20)])).resolves.toEqual([2, 40]);
    await expect(doubling.run(-1)).rejects.toThrow('no negative numbers');
    await expect(doubling.run(3)).resolves.toBe(6);
  });

  it('holds the loop while a job runs: a process awaiting its answer and then the close ends with exit code 0', () => {
    // Before, the worker was unref'd with its port: nothing held the loop while the job ran, and Node ended the
    // process with the top-level await unsettled (exit code 13), before the line after it.
    const ended = exitOf(`
const worker = startJobWorker({ name: 'the test worker', source: ${JSON.stringify(
      'function answerJob(ms) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms); return ms; }\nfunction closeWorker() {}',
    )} });
const answer = await worker.run(300);
await worker.close();
console.log('answered ' + answer);
`);
    expect(ended).toEqual({ code: 0, stdout: 'answered 300\n', stderr: '' });
  });

  it('leaves an idle process free to end: a worker with no job never holds the loop', () => {
    const ended = exitOf(`
const worker = startJobWorker({ name: 'the test worker', source: ${JSON.stringify(DOUBLING)} });
await worker.run(2);
process.on('exit', () => console.log('ended without a close'));
`);
    expect(ended).toEqual({ code: 0, stdout: 'ended without a close\n', stderr: '' });
  });

  it('terminates a worker that does not close within its time limit, and rejects the job it never answered', async () => {
    const stuck = worker<number, number>(
      'function answerJob(ms) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms); return ms; }\nfunction closeWorker() {}',
      200,
    );
    const unanswered = stuck.run(60_000);
    const closedAt = Date.now();
    await stuck.close();
    await expect(unanswered).rejects.toThrow('the test worker ended (exit code 1) before it answered.');
    // A loose bound: the 60 s job was cut short by the 200 ms limit.
    expect(Date.now() - closedAt).toBeLessThan(30_000);
  });

  it('refuses jobs once closed', async () => {
    const doubling = worker<number, number>(DOUBLING);
    await doubling.run(1);
    await doubling.close();
    await expect(doubling.run(1)).rejects.toThrow('the test worker is closed.');
  });
});
