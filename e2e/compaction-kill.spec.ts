/**
 * `anybrain compact`, as a user runs it, killed with SIGKILL while the summary streams: the conversation is exactly as
 * before (every message and tool call byte for byte, no summary row), the database passes its integrity check, and
 * the next `anybrain compact` completes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { SUMMARY_REQUEST_MARKER } from '../src-main/core/context/summary-prompt';
import { SLOW_SUMMARY_DIRECTIVE } from './fake-brains/script';
import { fakeBrainRequests, OWN_CONNECTION } from './support/app';
import { readE2eEnvironment } from './support/environment';
import { giveOllamaASmallWindow, longTranscript } from './support/long-conversation';

const repoRoot = resolve(import.meta.dirname, '..');
const cli = join(repoRoot, 'bin', 'anybrain.js');

let dataDir: string;
test.beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'anybrain-compaction-kill-'));
});
test.afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

function cliEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, ...readE2eEnvironment().baseUrlEnv, ANYBRAIN_DATA_DIR: dataDir };
}

function run(args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { env: cliEnvironment(), encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface Dump {
  readonly messages: unknown[];
  readonly invocations: unknown[];
  readonly brainState: unknown[];
  readonly integrity: string;
}

/** Every row of the tables a compaction writes, every column, in a fixed order, and the integrity check. */
function dump(): Dump {
  const database = new Database(join(dataDir, 'anybrain.db'), { readonly: true, fileMustExist: true });
  try {
    return {
      messages: database.prepare('SELECT * FROM messages ORDER BY conversation_id, seq').all(),
      invocations: database.prepare('SELECT * FROM tool_invocations ORDER BY id').all(),
      brainState: database.prepare('SELECT * FROM brain_state ORDER BY conversation_id, brain').all(),
      integrity: database.pragma('integrity_check', { simple: true }) as string,
    };
  } finally {
    database.close();
  }
}

/** The compaction requests Ollama's fake has received since the last reset. */
async function compactionRequests(request: APIRequestContext) {
  return (await fakeBrainRequests(request)).filter(
    (recorded) => recorded.brain === 'ollama' && recorded.path.endsWith('/api/chat') && JSON.stringify(recorded.body).includes(SUMMARY_REQUEST_MARKER),
  );
}

test('a compaction killed with SIGKILL while the summary streams leaves the conversation as before, and the next one completes', async ({ request }) => {
  test.setTimeout(90_000);
  await request.post(`${readE2eEnvironment().fakeBrainsUrl}/_fake/reset`, { headers: OWN_CONNECTION });
  // Ollama's default model is given a 4,096-token window, as a user sets it: 40 messages of 100 tokens are read in
  // parts, and the first part, holding the slow-summary directive, streams its summary over seconds.
  const file = join(dataDir, 'long.json');
  writeFileSync(file, longTranscript({ title: 'Long talk', exchanges: 20, messageTokens: 100, firstQuestionSuffix: ` ${SLOW_SUMMARY_DIRECTIVE}` }));
  const imported = run(['import', file]);
  expect(imported.code).toBe(0);
  const conversationId = imported.stdout.trim();
  giveOllamaASmallWindow(join(dataDir, 'anybrain.db'));
  const before = dump();
  expect(before.messages).toHaveLength(40);
  expect(before.invocations).toHaveLength(1);
  expect(before.integrity).toBe('ok');

  const child = spawn(process.execPath, [cli, 'compact', '--conversation', conversationId, '--brain', 'ollama'], {
    env: cliEnvironment(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolvePromise) => child.once('exit', (_code, signal) => resolvePromise(signal)));
  await expect.poll(() => stderr, { timeout: 20_000 }).toMatch(/^Ollama \(qwen3\) is summarising \d+ messages…\n/);
  // The first part's request has reached the fake, whose summary now streams for seconds: the kill lands midway.
  await expect.poll(async () => (await compactionRequests(request)).length, { timeout: 20_000 }).toBe(1);
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  expect(stdout).toBe('');
  expect(stderr).toMatch(/^Ollama \(qwen3\) is summarising \d+ messages…\n$/);

  const afterKill = dump();
  expect(afterKill).toEqual(before);
  expect(JSON.stringify(afterKill)).toBe(JSON.stringify(before));

  const compacted = run(['compact', '--conversation', conversationId, '--brain', 'ollama']);
  expect(compacted.stderr).toMatch(/^Ollama \(qwen3\) is summarising (\d+) messages…\n(\d+ of \1 messages read\n)+Ollama summarised \1 messages; they stay in the conversation, folded under the summary\.\n$/);
  expect(compacted.code).toBe(0);
  expect(compacted.stdout).toMatch(/^Summary of the conversation so far: \d+ user messages\.\n$/);
  const after = dump();
  expect(after.integrity).toBe('ok');
  const summaries = (after.messages as Array<Record<string, unknown>>).filter((row) => row.kind === 'summary');
  expect(summaries).toHaveLength(1);
  const covered = (after.messages as Array<Record<string, unknown>>).filter((row) => row.compacted_into === summaries[0]!.id);
  expect(`${covered.length}`).toBe(/summarising (\d+) messages/.exec(compacted.stderr)?.[1]);
});
