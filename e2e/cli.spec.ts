/**
 * The command line against the fake brains, as a user runs it: `anybrain chat`, `export`, `doctor`, and a process
 * killed in the middle of a reply.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { transcriptSchema } from '../src-shared/transcript';
import { readE2eEnvironment } from './support/environment';

const repoRoot = resolve(import.meta.dirname, '..');
const cli = join(repoRoot, 'bin', 'anybrain.js');

function cliEnvironment(dataDir: string): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env, ...readE2eEnvironment().baseUrlEnv, ANYBRAIN_DATA_DIR: dataDir };
  // The fake brains need no key: the CLI must work against a keyless custom endpoint.
  delete environment.MOONSHOT_API_KEY;
  delete environment.ANTHROPIC_API_KEY;
  return environment;
}

function run(dataDir: string, args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { env: cliEnvironment(dataDir), encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

let dataDir: string;
test.beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'anybrain-cli-'));
});
test.afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

test('chat streams the reply to stdout, stores it, and export prints a transcript v1 with both model fields', () => {
  const chat = run(dataDir, ['chat', '--brain', 'kimi', 'hello']);
  expect(chat.stderr).toMatch(/^[0-9A-Z]{26}\n$/);
  expect(chat.stdout).toBe('Fake Kimi reply to: hello\n');
  expect(chat.code).toBe(0);
  const conversationId = chat.stderr.trim();

  const list = run(dataDir, ['list', '--json']);
  expect(JSON.parse(list.stdout)).toEqual([{ id: conversationId, title: 'hello', brain: 'kimi', updated_at: expect.any(String) }]);

  const exported = run(dataDir, ['export', '--conversation', conversationId, '--format', 'json']);
  expect(exported.code).toBe(0);
  const transcript = transcriptSchema.parse(JSON.parse(exported.stdout));
  expect(transcript.messages).toHaveLength(2);
  expect(transcript.messages[1]).toMatchObject({
    role: 'assistant',
    text: 'Fake Kimi reply to: hello',
    status: 'complete',
    brain: 'kimi',
    model_requested: 'kimi-k2.6',
    model_responded: 'kimi-k2.6',
  });
  expect(transcript.messages[0]?.turn_id).toBe(transcript.messages[1]?.turn_id);

  const again = run(dataDir, ['chat', '--conversation', conversationId, '--brain', 'claude', 'and you?']);
  expect(again.stdout).toBe('Fake Claude reply to: and you?\n');
  const doctor = run(dataDir, ['doctor']);
  expect(doctor.code).toBe(0);
});

test('a process killed mid-reply leaves the partial reply stored as interrupted, and the conversation usable', async () => {
  const child = spawn(process.execPath, [cli, 'chat', '--brain', 'kimi', '[slow] a long story please'], {
    env: cliEnvironment(dataDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await expect.poll(() => stdout, { timeout: 20_000 }).toContain('word8');
  // Past one checkpoint interval, so the partial text is on disk.
  await new Promise((resolvePromise) => setTimeout(resolvePromise, 400));
  child.kill('SIGKILL');
  await new Promise((resolvePromise) => child.once('exit', resolvePromise));
  const conversationId = stderr.trim();

  const doctor = run(dataDir, ['doctor']);
  expect(doctor.code).toBe(1);
  expect(doctor.stdout).toContain('interrupted replies: 1 (1 found at this start)');

  const transcript = transcriptSchema.parse(JSON.parse(run(dataDir, ['export', '--conversation', conversationId]).stdout));
  const partial = transcript.messages[1];
  expect(partial?.status).toBe('interrupted');
  expect(partial?.text).toMatch(/^word1 word2 word3 word4 word5 word6 word7 word8/);
  expect(stdout.startsWith(partial?.text ?? '\u0000')).toBe(true);

  const next = run(dataDir, ['chat', '--conversation', conversationId, '--brain', 'kimi', 'still there?']);
  expect(next.code).toBe(0);
  expect(next.stdout).toBe('Fake Kimi reply to: still there?\n');
});

test('import keeps texts exactly; doctor reports chrome and escaped quotes; repair fixes them and --undo restores them', () => {
  const file = join(dataDir, 'legacy.json');
  const legacy = {
    format: 'anybrain.transcript',
    version: 1,
    conversation: { id: 'legacy', title: 'Legacy chat', created_at: '2025-01-01T00:00:00.000Z' },
    messages: [
      { id: 'm1', turn_id: 't1', role: 'user', kind: 'chat', text: 'What did she say?' },
      {
        id: 'm2', turn_id: 't1', role: 'assistant', kind: 'chat', status: 'complete', brain: 'claude',
        model_requested: 'claude-sonnet-4-6', model_responded: 'claude-sonnet-4-6',
        text: 'She said \\"yes\\".\n\n<details><summary>1 tool</summary>read_file</details>\n\n1 tool',
      },
    ],
  };
  writeFileSync(file, JSON.stringify(legacy));
  const imported = run(dataDir, ['import', file]);
  expect(imported.code).toBe(0);
  const conversationId = imported.stdout.trim();
  const exportedText = () => transcriptSchema.parse(JSON.parse(run(dataDir, ['export', '--conversation', conversationId]).stdout)).messages[1]?.text;
  expect(exportedText()).toBe(legacy.messages[1]?.text);

  const doctor = run(dataDir, ['doctor']);
  expect(doctor.code).toBe(1);
  expect(doctor.stdout).toContain('chrome-bearing replies: 1\nreplies with escaped quotes: 1\n');

  const dryRun = run(dataDir, ['repair', 'quote-escapes']);
  expect(dryRun.stderr).toContain('1 texts would change. Nothing was changed');
  expect(exportedText()).toBe(legacy.messages[1]?.text);

  expect(run(dataDir, ['repair', 'quote-escapes', '--apply']).code).toBe(0);
  expect(run(dataDir, ['repair', 'chrome', '--apply']).code).toBe(0);
  expect(exportedText()).toBe('She said "yes".');
  expect(run(dataDir, ['doctor']).code).toBe(0);

  expect(run(dataDir, ['repair', '--undo']).stdout).toBe('Undid the last chrome repair: 1 texts restored.\n');
  expect(run(dataDir, ['repair', '--undo']).stdout).toBe('Undid the last quote-escapes repair: 1 texts restored.\n');
  expect(exportedText()).toBe(legacy.messages[1]?.text);

  const malformed = join(dataDir, 'broken.json');
  writeFileSync(malformed, JSON.stringify({ ...legacy, messages: [{ ...legacy.messages[0], role: 'robot' }] }));
  const refused = run(dataDir, ['import', malformed]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('messages[0].role');
  expect(JSON.parse(run(dataDir, ['list', '--json']).stdout)).toHaveLength(1);
});

test('anybrain request prints byte-identical bodies on repeated runs, for every brain', () => {
  const chat = run(dataDir, ['chat', '--brain', 'kimi', 'hello there']);
  const conversationId = chat.stderr.trim();
  for (const brain of ['claude', 'codex', 'kimi', 'grok', 'glm', 'gemini', 'ollama']) {
    const first = run(dataDir, ['request', '--conversation', conversationId, '--brain', brain, '--message', 'next 안녕 👋']);
    const second = run(dataDir, ['request', '--conversation', conversationId, '--brain', brain, '--message', 'next 안녕 👋']);
    expect(first.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const body = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(JSON.stringify(body)).toContain('Fake Kimi reply to: hello there');
    expect(JSON.stringify(body)).toContain('next 안녕 👋');
  }
});

test('a request body of megabytes comes through a pipe whole, and its window goes to stderr', () => {
  // 800 messages of about 300 words: a body of about 1.5 MB, far more than a pipe holds at once.
  const messages = Array.from({ length: 800 }, (_, index) => ({
    id: `m${index}`,
    turn_id: `t${index >> 1}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    kind: 'chat',
    text: `${index % 2 === 0 ? 'question' : 'answer'} ${index} ${'words '.repeat(300)}`,
    ...(index % 2 === 1 ? { status: 'complete', brain: 'claude' } : {}),
  }));
  const file = join(dataDir, 'long.json');
  writeFileSync(file, JSON.stringify({ format: 'anybrain.transcript', version: 1, conversation: { id: 'x', title: 'Long', created_at: '2026-12-01T00:00:00.000Z' }, messages }));
  const conversationId = run(dataDir, ['import', file]).stdout.trim();
  const request = spawnSync(process.execPath, [cli, 'request', '--conversation', conversationId, '--brain', 'claude'], {
    env: cliEnvironment(dataDir),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 30_000,
  });
  expect(request.status).toBe(0);
  expect(request.stdout.length).toBeGreaterThan(1_000_000);
  const body = JSON.parse(request.stdout) as { messages: unknown[] };
  // The 800 messages, then the line that keeps a request from ending on a finished reply.
  expect(body.messages).toHaveLength(801);
  expect(request.stderr).toMatch(/^Window: Claude \(claude-sonnet-5-5\) holds 1,000,000 tokens \(from the catalogue\)\. The conversation is about [\d,]+ tokens, [\d,]+ % of Claude's window; this request holds about [\d,]+ \(\d+ %\)\.\n$/);
});
