import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCore, DATABASE_FILE } from '../app';
import { openDatabase } from './open';
import { holdOwnerLock, isStreamOwnerAlive, ownerLockPath, probeOwnerLock, THIS_PROCESS_OWNER } from './owner-lock';

const repoRoot = resolve(import.meta.dirname, '..', '..', '..');
const holderScript = join(import.meta.dirname, 'owner-lock-holder.fixture.ts');

const folders: string[] = [];
const wrappers: ChildProcess[] = [];
function tempDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-owner-lock-'));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const wrapper of wrappers.splice(0)) wrapper.kill('SIGKILL');
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The one-letter state in /proc/<pid>/stat (`Z` for a zombie), or null where there is no /proc. */
function processState(pid: number): string | null {
  const statPath = `/proc/${pid}/stat`;
  if (!existsSync(statPath)) return null;
  const stat = readFileSync(statPath, 'utf8');
  // The command name in parentheses may hold spaces: the state follows the last `)`.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 20));
  }
}

/**
 * Starts the holder under a shell that then becomes `sleep`: the holder's parent never waits for it, so once killed
 * it stays a zombie (Node itself reaps every child it spawns, so the holder must not be Node's child).
 */
async function startUnreapedHolder(dataDir: string, databasePath: string): Promise<{ pid: number; owner: string }> {
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const command = `${quote(process.execPath)} --import tsx ${quote(holderScript)} ${quote(dataDir)} ${quote(databasePath)} & exec sleep 120`;
  const wrapper = spawn('sh', ['-c', command], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  wrappers.push(wrapper);
  let stdout = '';
  wrapper.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  await until(() => /ready \d+ \S+\n/.test(stdout), 15_000);
  const [, pid, owner] = /ready (\d+) (\S+)\n/.exec(stdout) ?? [];
  return { pid: Number(pid), owner: owner ?? '' };
}

describe('owner locks', () => {
  it('name one file per owner in the data folder, safe for any host name', () => {
    expect(ownerLockPath('/data', '42@my host/x')).toBe(join('/data', 'locks', '42@my_host_x.db'));
    expect(THIS_PROCESS_OWNER).toBe(`${process.pid}@${hostname()}`);
  });

  it('are held while any holder in this process keeps them, and their file goes with the last release', () => {
    const dataDir = tempDir();
    const first = holdOwnerLock(dataDir, '7@elsewhere-in-this-process');
    const second = holdOwnerLock(dataDir, '7@elsewhere-in-this-process');
    expect(first.path).toBe(ownerLockPath(dataDir, '7@elsewhere-in-this-process'));
    expect(existsSync(first.path)).toBe(true);
    first.release();
    first.release();
    expect(probeOwnerLock(dataDir, '7@elsewhere-in-this-process')).toBe('alive');
    second.release();
    expect(existsSync(first.path)).toBe(false);
    expect(probeOwnerLock(dataDir, '7@elsewhere-in-this-process')).toBe('gone');
  });

  it('sweep the files of owners that died without a streaming row when a process takes its own', () => {
    const dataDir = tempDir();
    const living = holdOwnerLock(dataDir, '9@living-in-this-process');
    const stale = ownerLockPath(dataDir, '8@died-long-ago');
    const leftBehind = new Database(stale);
    leftBehind.exec('CREATE TABLE owner (pid INTEGER)');
    leftBehind.close();
    const mine = holdOwnerLock(dataDir, '10@starting-now');
    expect(readdirSync(join(dataDir, 'locks')).sort()).toEqual(['10@starting-now.db', '9@living-in-this-process.db']);
    mine.release();
    living.release();
    expect(readdirSync(join(dataDir, 'locks'))).toEqual([]);
  });

  it('judge owners: no lock file is gone, this process at start-up is a reused pid, another host is kept', () => {
    const dataDir = tempDir();
    expect(isStreamOwnerAlive(dataDir, `999999999@${hostname()}`)).toBe(false);
    expect(isStreamOwnerAlive(dataDir, THIS_PROCESS_OWNER)).toBe(false);
    expect(isStreamOwnerAlive(dataDir, '1@another-host.example')).toBe(true);
    expect(isStreamOwnerAlive(dataDir, 'garbage')).toBe(false);
  });

  it('leave a live process its reply, and free it at once when that process is killed and left an unreaped zombie', async () => {
    const dataDir = tempDir();
    const databasePath = join(dataDir, DATABASE_FILE);
    const seeded = openDatabase(databasePath);
    seeded.$client.prepare("INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('c1', 'Held', 't', 't')").run();
    seeded.$client.close();

    const holder = await startUnreapedHolder(dataDir, databasePath);
    expect(holder.owner).toBe(`${holder.pid}@${hostname()}`);
    expect(isStreamOwnerAlive(dataDir, holder.owner)).toBe(true);
    const whileAlive = openCore({ dataDir, env: {} });
    expect(whileAlive.recoveredInterrupted).toBe(0);
    await whileAlive.dispose();

    process.kill(holder.pid, 'SIGKILL');
    if (processState(holder.pid) !== null) {
      // The main thread shows `Z` while the process's other threads may still be exiting, and the files (and so the
      // lock) are closed by the last of them: wait until only the zombie main thread is left.
      await until(() => processState(holder.pid) === 'Z' && readdirSync(`/proc/${holder.pid}/task`).length === 1, 5_000);
      expect(processState(holder.pid)).toBe('Z');
    }
    // What a pid probe sees: the zombie still answers signal 0, so it would pass for alive.
    expect(() => process.kill(holder.pid, 0)).not.toThrow();
    expect(existsSync(ownerLockPath(dataDir, holder.owner))).toBe(true);

    const afterKill = openCore({ dataDir, env: {} });
    try {
      expect(afterKill.recoveredInterrupted).toBe(1);
      const row = afterKill.db.$client.prepare("SELECT status, text, stream_owner FROM messages WHERE id = 'held-reply'").get();
      expect(row).toEqual({ status: 'interrupted', text: 'half a repl', stream_owner: null });
      expect(existsSync(ownerLockPath(dataDir, holder.owner))).toBe(false);
    } finally {
      await afterKill.dispose();
    }
  });
});
