/**
 * A summary belongs to the window it was made for: a conversation that fills most of a small Ollama window (its
 * Modelfile sets `num_ctx 4096`, as the fake's `/api/show` reports) compacts for Ollama, and Claude's next request still
 * holds every original message and no summary, while Ollama's holds the summary. The store keeps every row.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { OWN_CONNECTION } from './support/app';
import { readE2eEnvironment } from './support/environment';
import { longTranscript } from './support/long-conversation';

const repoRoot = resolve(import.meta.dirname, '..');
const cli = join(repoRoot, 'bin', 'anybrain.js');
/** The fake describes a model named `…ctx-N` as one whose Modelfile sets `num_ctx N`. */
const SMALL_MODEL = 'qwen3:ctx-4096';

let dataDir: string;
test.beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'anybrain-summary-window-'));
});
test.afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

function run(args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], {
    env: { ...process.env, ...readE2eEnvironment().baseUrlEnv, ANYBRAIN_DATA_DIR: dataDir },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function storedRows(): Array<{ id: string; kind: string; text: string }> {
  const database = new Database(join(dataDir, 'anybrain.db'), { readonly: true, fileMustExist: true });
  try {
    return database.prepare('SELECT id, kind, text FROM messages ORDER BY seq').all() as Array<{ id: string; kind: string; text: string }>;
  } finally {
    database.close();
  }
}

test("Ollama's compaction for its small window leaves Claude's request whole, and Ollama's next request holds the summary", async ({ request }) => {
  test.setTimeout(90_000);
  await request.post(`${readE2eEnvironment().fakeBrainsUrl}/_fake/reset`, { headers: OWN_CONNECTION });
  const file = join(dataDir, 'long.json');
  writeFileSync(file, longTranscript({ title: 'Long talk', exchanges: 20, messageTokens: 80 }));
  const imported = run(['import', file]);
  expect(imported.code).toBe(0);
  const conversationId = imported.stdout.trim();
  const original = storedRows();
  expect(original).toHaveLength(40);

  const before = run(['request', '--conversation', conversationId, '--brain', 'ollama', '--model', SMALL_MODEL, '--message', 'And now?']);
  expect(before.code).toBe(0);
  expect(before.stderr).toMatch(/^Window: Ollama \(qwen3:ctx-4096\) holds 4,096 tokens/);
  expect(before.stderr).toMatch(/older messages are outside Ollama's window/);

  const chat = run(['chat', '--conversation', conversationId, '--brain', 'ollama', '--model', SMALL_MODEL, 'And now?']);
  expect(chat.code, chat.stderr).toBe(0);
  const summaries = storedRows().filter((row) => row.kind === 'summary');
  expect(summaries).toHaveLength(1);
  const summary = summaries[0]!;
  expect(summary.text).toMatch(/^Summary of the conversation so far: \d+ user messages; tools used: current_time\.$/);

  const forClaude = run(['request', '--conversation', conversationId, '--brain', 'claude']);
  expect(forClaude.code).toBe(0);
  const claudeBody = forClaude.stdout;
  for (const row of original) expect(claudeBody).toContain(JSON.stringify(row.text).slice(1, 60));
  expect(claudeBody).not.toContain('Summary of the conversation so far');
  expect(claudeBody).not.toContain('outside');
  expect(forClaude.stderr).not.toMatch(/History:/);

  const forOllama = run(['request', '--conversation', conversationId, '--brain', 'ollama', '--model', SMALL_MODEL]);
  expect(forOllama.code).toBe(0);
  expect(forOllama.stdout).toContain(summary.text);
  expect(forOllama.stdout).not.toContain('Question 0:');
  expect(forOllama.stderr).toContain(`History: Ollama's request holds a summary written for Ollama's window in place of the older messages (summary ${summary.id}).`);

  // Every row is still stored: the 40 imported, the new question and its answer, and the summary beside them.
  const after = storedRows();
  expect(after.filter((row) => row.kind !== 'summary').map((row) => row.id).slice(0, 40)).toEqual(original.map((row) => row.id));
  expect(after).toHaveLength(43);
});
