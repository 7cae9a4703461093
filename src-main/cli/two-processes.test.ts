/**
 * Two processes on one data folder, through the built command line against the fake brains: a `chat` in a conversation
 * another process is answering in is refused with one sentence and a non-zero exit, and chats in other conversations,
 * run side by side, all succeed (each waits out the others' writes instead of failing with "database is locked").
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAIN_IDS, BRAINS } from '../../src-shared/brains';
import { startFakeBrains, type FakeBrains } from '../../e2e/fake-brains/server';
import { ANSWERING_ELSEWHERE_MESSAGE } from '../core/store/turn-leases';
import { buildCliInto, cliBuildFolder } from './testing';

const PARALLEL_CHATS = 8;
const builtCliFolder = cliBuildFolder('two-processes-cli');
const builtCli = join(builtCliFolder, 'anybrain.js');

let fakeBrains: FakeBrains;
let dataDir: string;
let environment: NodeJS.ProcessEnv;

beforeAll(async () => {
  buildCliInto(builtCliFolder);
  fakeBrains = await startFakeBrains({ openAiSpecPath: null });
  dataDir = mkdtempSync(join(tmpdir(), 'anybrain-two-processes-'));
  environment = { ...process.env, ANYBRAIN_DATA_DIR: dataDir };
  for (const brain of BRAIN_IDS) environment[BRAINS[brain].baseUrlVariable] = fakeBrains.baseUrlFor(brain);
}, 120_000);

afterAll(async () => {
  await fakeBrains?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  rmSync(builtCliFolder, { recursive: true, force: true });
});

interface Run {
  readonly stderr: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

function run(args: readonly string[]): Run {
  const child = spawn(process.execPath, [builtCli, ...args], { env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { stderr: () => stderr, exited };
}

describe('two command lines on one data folder', () => {
  it('refuses a chat in the conversation the other is answering in, and runs chats in other conversations side by side', async () => {
    const answering = run(['chat', '--brain', 'claude', '[slow] Tell me a long story']);
    await expect.poll(() => answering.stderr().trim().split('\n')[0] ?? '', { timeout: 20_000 }).toMatch(/^[0-9A-Z]{26}$/);
    const conversationId = answering.stderr().trim().split('\n')[0]!;

    const refused = await run(['chat', '--brain', 'claude', '--conversation', conversationId, 'Me too']).exited;
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(ANSWERING_ELSEWHERE_MESSAGE);

    const others = await Promise.all(Array.from({ length: PARALLEL_CHATS }, (_, index) => run(['chat', '--brain', 'claude', `Hello ${index}`]).exited));
    // A chat that ended otherwise says how: its signal and the end of what it wrote to stderr.
    expect(others.map((other) => (other.code === 0 && !other.stderr.includes('database is locked') ? 'ok' : [other.code, other.signal, other.stderr.slice(-600)]))).toEqual(
      Array.from({ length: PARALLEL_CHATS }, () => 'ok'),
    );
    expect((await answering.exited).code).toBe(0);
  }, 120_000);
});
