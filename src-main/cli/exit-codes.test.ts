/**
 * Every writing command exits with the code it decided and lets go of its owner lock, once the data folder's
 * write-ahead log has grown past SQLite's checkpoint threshold: alone (the command's own writes grow it), and beside
 * `anybrain serve`, whose open connection keeps the log from being removed between commands. The command line is
 * built from this checkout and run against the fake brains.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BRAIN_IDS, BRAINS } from '../../src-shared/brains';
import { startFakeBrains, type FakeBrains } from '../../e2e/fake-brains/server';
import { DATABASE_FILE } from '../core/app';
import { LOCKS_FOLDER } from '../core/store/owner-lock';
import { buildCliInto, cliBuildFolder } from './testing';

const builtCliFolder = cliBuildFolder('exit-codes-cli');
const builtCli = join(builtCliFolder, 'anybrain.js');
/** More than 4 MiB of log from one import: 1,000 pages of 4 KiB is SQLite's checkpoint threshold. */
const IMPORTED_MESSAGES = 6_000;

let fakeBrains: FakeBrains;
let environment: NodeJS.ProcessEnv;
let folder: string;
const serving = new Set<ChildProcess>();

beforeAll(async () => {
  buildCliInto(builtCliFolder);
  fakeBrains = await startFakeBrains({ openAiSpecPath: null });
  folder = mkdtempSync(join(tmpdir(), 'anybrain-exit-codes-'));
  writeFileSync(join(folder, 'large.json'), JSON.stringify(largeTranscript()));
}, 120_000);

afterEach(() => {
  for (const child of serving) child.kill('SIGKILL');
  serving.clear();
});

afterAll(async () => {
  await fakeBrains?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
  rmSync(builtCliFolder, { recursive: true, force: true });
});

function largeTranscript() {
  const messages = Array.from({ length: IMPORTED_MESSAGES }, (_, index) => ({
    id: `m${index}`,
    turn_id: `t${Math.floor(index / 2)}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    kind: 'chat',
    text: `Message ${index}: ${'the tide comes in and the tide goes out. '.repeat(12)}`,
    created_at: '2026-01-01T00:00:00.000Z',
    ...(index % 2 === 1 ? { status: 'complete', brain: 'claude', model_requested: 'claude-sonnet-4-6', model_responded: 'claude-sonnet-4-6' } : {}),
  }));
  return { format: 'anybrain.transcript', version: 1, conversation: { id: 'large', title: 'Large', created_at: '2026-01-01T00:00:00.000Z' }, messages };
}

function environmentFor(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ANYBRAIN_DATA_DIR: dataDir };
  for (const brain of BRAIN_IDS) env[BRAINS[brain].baseUrlVariable] = fakeBrains.baseUrlFor(brain);
  return env;
}

interface Ended {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: readonly string[]): Promise<Ended> {
  const child = spawn(process.execPath, [builtCli, ...args], { env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

async function startServe(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [builtCli, 'serve', '--port', '0'], { env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
  serving.add(child);
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  await expect.poll(() => stdout, { timeout: 20_000 }).toContain('Anybrain is running at');
  return child;
}

function ownerLocks(dataDir: string): string[] {
  try {
    return readdirSync(join(dataDir, LOCKS_FOLDER)).sort();
  } catch {
    return [];
  }
}

/** The writing commands, in an order where each finds what it works on; the conversation id comes from the import. */
function writingCommands(conversationId: () => string): ReadonlyArray<readonly [string, () => string[]]> {
  return [
    ['import', () => ['import', join(folder, 'large.json')]],
    ['chat', () => ['chat', '--conversation', conversationId(), '--brain', 'kimi', 'One more thing']],
    ['compact', () => ['compact', '--conversation', conversationId(), '--brain', 'ollama']],
    ['repair quote-escapes --apply', () => ['repair', 'quote-escapes', '--apply']],
    ['repair chrome --apply', () => ['repair', 'chrome', '--apply']],
    ['repair --undo', () => ['repair', '--undo']],
  ];
}

async function runEveryWritingCommand(dataDir: string, locksBefore: readonly string[]): Promise<Record<string, Ended>> {
  let conversationId = '';
  const ended: Record<string, Ended> = {};
  for (const [name, args] of writingCommands(() => conversationId)) {
    const result = await run(args());
    if (name === 'import') conversationId = result.stdout.trim().split('\n')[0] ?? '';
    ended[name] = result;
    expect({ command: name, code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ command: name, code: 0, stderr: '' });
    // Released on the way out: only the locks held before the command remain.
    expect(ownerLocks(dataDir), name).toEqual(locksBefore);
  }
  return ended;
}

describe('writing commands past the checkpoint threshold', () => {
  it('each exits 0 and releases its lock when it runs alone', async () => {
    const dataDir = mkdtempSync(join(folder, 'alone-'));
    environment = environmentFor(dataDir);
    const ended = await runEveryWritingCommand(dataDir, []);
    expect(Object.keys(ended)).toHaveLength(writingCommands(() => '').length);
    expect(ended.import!.stderr).toContain('6,000 messages');
  }, 180_000);

  it('each exits 0 and releases its lock beside a running serve, whose connection keeps the log past 4 MiB', async () => {
    const dataDir = mkdtempSync(join(folder, 'beside-serve-'));
    environment = environmentFor(dataDir);
    await startServe();
    const locksOfServe = ownerLocks(dataDir);
    expect(locksOfServe).toHaveLength(1);
    const ended = await runEveryWritingCommand(dataDir, locksOfServe);
    expect(Object.keys(ended)).toHaveLength(writingCommands(() => '').length);
    // The log that outlived every command, cut back after each checkpoint: never again past SQLite's threshold.
    expect(statSync(join(dataDir, `${DATABASE_FILE}-wal`)).size).toBeLessThan(4 * 1024 * 1024);
  }, 180_000);
});
