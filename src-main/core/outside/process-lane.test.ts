import { spawn, spawnSync } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LaneEndedError, ProcessLane } from './process-lane';

const HELPER = resolve(import.meta.dirname, 'testing', 'lane-helper.mjs');

type Request = { readonly op: 'echo'; readonly value: unknown } | { readonly op: 'fail' | 'hang' | 'exit' | 'pid' };

const lanes: ProcessLane<Request>[] = [];

function lane(): ProcessLane<Request> {
  const made = new ProcessLane<Request>('the test helper', () => spawn(process.execPath, [HELPER], { stdio: ['pipe', 'pipe', 'pipe'] }));
  lanes.push(made);
  return made;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterEach(() => {
  for (const made of lanes.splice(0)) made.dispose();
});

describe('a process lane', () => {
  it('answers each call from one helper process, errors as rejections', async () => {
    const helper = lane();
    const pid = await helper.call<number>({ op: 'pid' });
    expect(await Promise.all([helper.call({ op: 'echo', value: { a: [1, 'two'] } }), helper.call({ op: 'echo', value: null })])).toEqual([{ a: [1, 'two'] }, null]);
    await expect(helper.call({ op: 'fail' })).rejects.toThrow('the helper refused');
    expect(await helper.call<number>({ op: 'pid' })).toBe(pid);
  });

  it('holds no thread of this process while a call hangs, and reset kills the helper and fails the call', async () => {
    const helper = lane();
    const pid = await helper.call<number>({ op: 'pid' });
    const hung = helper.call({ op: 'hang' });
    // As many hung calls as libuv's pool has threads (four unless UV_THREADPOOL_SIZE says otherwise): were each held
    // on a thread of this process, the file calls below would queue behind them for good.
    const others = Array.from({ length: Number(process.env.UV_THREADPOOL_SIZE ?? 4) - 1 }, () => lane());
    const otherHung = others.map((other) => other.call({ op: 'hang' }).catch(() => 'given up'));
    const fileCalls = Promise.all(Array.from({ length: 16 }, () => stat(import.meta.dirname))).then(() => 'answered');
    const waited = new Promise((resolve) => setTimeout(() => resolve('queued behind the hung calls'), 10_000));
    expect(await Promise.race([fileCalls, waited])).toBe('answered');
    for (const other of others) other.reset();
    expect(await Promise.all(otherHung)).toEqual(others.map(() => 'given up'));
    helper.reset();
    await expect(hung).rejects.toBeInstanceOf(LaneEndedError);
    await expect(hung).rejects.toThrow('the test helper was given up on');
    await expect.poll(() => alive(pid)).toBe(false);
    // The next call starts a new helper.
    const next = await helper.call<number>({ op: 'pid' });
    expect(next).not.toBe(pid);
  });

  it('fails the calls waiting on a helper that stopped, with the last line it wrote to stderr', async () => {
    const helper = lane();
    await expect(helper.call({ op: 'exit' })).rejects.toThrow("the test helper's helper stopped (exit code 3): lane helper: exiting as asked");
    expect(await helper.call({ op: 'echo', value: 'again' })).toBe('again');
  });

  it('refuses calls once disposed', async () => {
    const helper = lane();
    helper.dispose();
    await expect(helper.call({ op: 'echo', value: 1 })).rejects.toThrow('the test helper is closed');
  });

  it('lets this process exit while a call hangs', () => {
    // A thread blocked in a native call would hold the exit: Node joins its pool and worker threads first.
    const script = `
      import { spawn } from 'node:child_process';
      import { ProcessLane } from ${JSON.stringify(resolve(import.meta.dirname, 'process-lane.ts'))};
      const lane = new ProcessLane('hung', () => spawn(process.execPath, [${JSON.stringify(HELPER)}], { stdio: ['pipe', 'pipe', 'pipe'] }));
      lane.call({ op: 'hang' }).catch(() => {});
      setTimeout(() => { process.stdout.write('leaving'); }, 100);
    `;
    const ran = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect([ran.status, ran.signal, ran.stdout]).toEqual([0, null, 'leaving']);
  });
});
