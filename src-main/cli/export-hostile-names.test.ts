/**
 * Exports of hostile names: an attachment named with 255 bytes, one with a right-to-left override, a title with a NUL.
 * Every written name stays within 255 bytes with no mark that reorders it, the HTML holds no NUL, and an export that
 * fails part-way leaves nothing behind.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openCore, type OpenedCore } from '../core/app';
import { exportCommand, importCommand } from './commands';
import { capture } from './captured-output';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const LONG_NAME = `${'a'.repeat(251)}.txt`;
const REORDERED_NAME = 'report\u202Efdp.txt';

async function importHostile(): Promise<{ core: OpenedCore; dataDir: string; conversation: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-export-names-'));
  const core = openCore({ dataDir, env: {}, exportArchives: 'in-process' });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose());
  const attachment = (name: string, bytes: Buffer) => ({
    name,
    media_type: 'text/plain',
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    data_base64: bytes.toString('base64'),
  });
  const transcript = {
    format: 'anybrain.transcript', version: 1, conversation: { id: 'c', title: 'Notes\u0000 and more', created_at: '2026-01-01T00:00:00.000Z' },
    messages: [
      { id: 'u1', turn_id: 't1', role: 'user', kind: 'chat', text: 'Two files\u0000', attachments: [attachment(LONG_NAME, Buffer.from('long')), attachment(REORDERED_NAME, Buffer.from('exe'))] },
      { id: 'a1', turn_id: 't1', role: 'assistant', kind: 'chat', status: 'complete', text: 'Seen.', brain: 'gemini' },
    ],
  };
  const file = join(dataDir, 'in.json');
  writeFileSync(file, JSON.stringify(transcript));
  const imported = capture();
  expect(await importCommand(core, imported, file)).toBe(0);
  return { core, dataDir, conversation: imported.out.trim() };
}

function everyName(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).flatMap((path) => path.split('/'));
}

it('keeps every written name within 255 bytes, without reordering marks, and the HTML without a NUL', async () => {
  const { core, dataDir, conversation } = await importHostile();
  const out = join(dataDir, 'md', 'notes.md');
  expect(await exportCommand(core, capture(), { conversation, format: 'md', out })).toBe(0);
  const folder = join(dataDir, 'all');
  expect(await exportCommand(core, capture(), { all: true, format: 'md', out: folder })).toBe(0);
  expect(readdirSync(folder)).toContain('index.json');
  const names = [...everyName(join(dataDir, 'md')), ...everyName(folder)];
  expect(names.filter((name) => name.startsWith('aaaa')).map((name) => Buffer.byteLength(name))).toEqual([247, 247]);
  expect(names).toContain('reportfdp.txt');
  for (const name of names) {
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect(name).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/u);
    expect(name).not.toContain("\u0000");
  }
  expect(readFileSync(out, 'utf8')).toContain(`Notes-and-more.attachments/${'a'.repeat(243)}.txt`);

  const html = capture();
  expect(await exportCommand(core, html, { conversation, format: 'html' })).toBe(0);
  expect(html.out).not.toContain('\u0000');
  expect(html.out).toContain('<title>Notes\uFFFD and more</title>');
});

it('leaves nothing written when the export cannot write one of its files', async () => {
  const { core, dataDir } = await importHostile();
  const first = join(dataDir, 'first');
  expect(await exportCommand(core, capture(), { all: true, format: 'md', out: first })).toBe(0);
  const attachmentsFolder = readdirSync(first).find((name) => name.endsWith('.attachments'))!;
  // A file where the export's attachments folder would go.
  const blocked = mkdtempSync(join(dataDir, 'blocked-'));
  writeFileSync(join(blocked, attachmentsFolder), 'in the way');
  await expect(exportCommand(core, capture(), { all: true, format: 'md', out: blocked })).rejects.toThrow(
    /^Could not write .*: a file or folder of that name is in the way\. Nothing was written\.$/,
  );
  expect(readdirSync(blocked)).toEqual([attachmentsFolder]);
});
