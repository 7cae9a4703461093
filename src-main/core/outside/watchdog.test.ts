import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PendingCalls } from './pending-calls';
import { startWatchdog, type Watchdog } from './watchdog';

const folders: string[] = [];
const watchdogs: Watchdog[] = [];
afterEach(async () => {
  for (const watchdog of watchdogs.splice(0)) await watchdog.dispose();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A log file the watchdog writes to, as it writes to standard error. */
function logFile(): { fd: number; read: () => string } {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-watchdog-'));
  folders.push(folder);
  const path = join(folder, 'log');
  const fd = openSync(path, 'a');
  return { fd, read: () => readFileSync(path, 'utf8') };
}

/** Holds this thread, as a synchronous call that waits does. */
function holdMainThread(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('the watchdog', () => {
  it('reports, while it lasts, a main loop that does not turn, with the outside calls under way and the last command', async () => {
    const log = logFile();
    const calls = new PendingCalls();
    const watchdog = startWatchdog({ loopStallMs: 300, logFd: log.fd, pendingCalls: calls });
    watchdogs.push(watchdog);
    watchdog.noteCommand('send');
    void calls.track('syncing the write-ahead log', new Promise(() => {}));
    // Let the worker start before the loop is held.
    await new Promise((resolve) => setTimeout(resolve, 500));
    holdMainThread(1_500);
    // Written by the worker while this thread was held: the report is there before the loop turns again.
    const during = log.read();
    await vi.waitFor(() => expect(log.read()).toMatch(/the main loop turns again after \d+(\.\d)? s\n$/));
    closeSync(log.fd);
    expect(during).toMatch(
      /^Anybrain: the main loop has not turned for \d+(\.\d)? s; outside calls under way: syncing the write-ahead log \(for \d+(\.\d)? s\); last command begun: send\n$/,
    );
  });

  it('reports a thread pool that runs nothing, once, and when it runs again', async () => {
    const log = logFile();
    const calls = new PendingCalls();
    let release: (() => void) | null = null;
    const watchdog = startWatchdog({
      poolFullMs: 300,
      logFd: log.fd,
      pendingCalls: calls,
      probePool: (done) => {
        release = done;
      },
    });
    watchdogs.push(watchdog);
    void calls.track('the system keychain: a read', new Promise(() => {}));
    await vi.waitFor(() => expect(log.read()).toContain("libuv's thread pool has run nothing"));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(log.read()).toMatch(
      /^Anybrain: libuv's thread pool has run nothing for \d+(\.\d)? s \(every thread is busy\); outside calls under way: the system keychain: a read \(for \d+(\.\d)? s\); last command begun: none\n$/,
    );
    release!();
    expect(log.read()).toMatch(/\nAnybrain: the thread pool runs again after \d+(\.\d)? s\n$/);
    closeSync(log.fd);
  });
});
