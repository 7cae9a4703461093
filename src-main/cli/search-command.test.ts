import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCore, DATABASE_FILE, type OpenedCore } from '../core/app';
import { insertConversation } from '../core/store/conversations';
import { insertMessage } from '../core/store/messages';
import { migrationsBefore } from '../core/store/migrations';
import { openDatabase } from '../core/store/open';
import { searchCommand } from './search-command';
import { capture } from './captured-output';

const NOW = '2026-12-01T10:00:00.000Z';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dataFolder(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-search-cli-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}

function open(dataDir: string): OpenedCore {
  const core = openCore({ dataDir, env: {} });
  cleanups.push(() => core.dispose());
  return core;
}

function seeded(): OpenedCore {
  const core = open(dataFolder());
  insertConversation(core.db, { id: 'c1', title: 'Trip to the coast', brain: 'kimi', model: null, now: NOW });
  insertConversation(core.db, { id: 'c2', title: 'Lighthouse keepers', brain: null, model: null, now: NOW });
  const rows = [
    { id: 'u1', seq: 0, role: 'user', text: 'Where should we stop on the way?', brain: null },
    { id: 'a1', seq: 1, role: 'assistant', text: 'Stop at the old lighthouse: the view at dusk is worth it.', brain: 'kimi' },
    { id: 'a2', seq: 2, role: 'assistant', text: 'Evil \u001b[2J\u001b[31m lighthouse \u001b[0m text\rover the roads, maps, fuel and weather', brain: 'kimi' },
  ] as const;
  for (const row of rows) {
    insertMessage(core.db, { ...row, conversationId: 'c1', turnId: `t${row.seq}`, status: 'complete', createdAt: NOW });
  }
  return core;
}

describe('anybrain search', () => {
  it('prints exact JSON: titles first, then messages by rank, snippets as text with match offsets', async () => {
    const core = seeded();
    const output = capture();
    expect(await searchCommand(core, output, { query: 'lighthouse', json: true, limit: 2 })).toBe(0);
    expect(output.err).toBe('');
    expect(JSON.parse(output.out)).toEqual([
      {
        conversation_id: 'c2',
        conversation_title: 'Lighthouse keepers',
        message_id: null,
        role: null,
        brain: null,
        snippet: 'Lighthouse keepers',
        matches: [[0, 10]],
        created_at: NOW,
      },
      {
        conversation_id: 'c1',
        conversation_title: 'Trip to the coast',
        message_id: 'a1',
        role: 'assistant',
        brain: 'kimi',
        snippet: 'Stop at the old lighthouse: the view at dusk is worth it.',
        matches: [[16, 26]],
        created_at: NOW,
      },
    ]);
  });

  it('prints who said it and the snippet with the hit in brackets, and never writes a control character from a text', async () => {
    const core = seeded();
    const output = capture();
    expect(await searchCommand(core, output, { query: 'lighthouse' })).toBe(0);
    expect(output.out).toBe(
      'Lighthouse keepers  (c2)\n' +
        '  title: [Lighthouse] keepers\n' +
        'Trip to the coast  (c1 a1)\n' +
        '  Kimi: Stop at the old [lighthouse]: the view at dusk is worth it.\n' +
        'Trip to the coast  (c1 a2)\n' +
        '  Kimi: Evil \uFFFD[2J\uFFFD[31m [lighthouse] \uFFFD[0m text over the roads, maps, fuel and weather\n',
    );
  });

  it('marks hits in bold on a terminal, and says so when nothing matches', async () => {
    const core = seeded();
    const bold = capture();
    await searchCommand(core, bold, { query: 'dusk', color: true });
    expect(bold.out).toBe('Trip to the coast  (c1 a1)\n  Kimi: Stop at the old lighthouse: the view at \u001b[1mdusk\u001b[22m is worth it.\n');
    const none = capture();
    expect(await searchCommand(core, none, { query: 'zeppelin' })).toBe(0);
    expect(none.out).toBe('');
    expect(none.err).toBe('No conversation or message matches.\n');
  });

  it('waits for messages from before the upgrade to be indexed, showing progress, then finds them', async () => {
    const dataDir = dataFolder();
    const older = openDatabase(join(dataDir, DATABASE_FILE), { migrations: migrationsBefore('0006_messages_fts') });
    older.$client.prepare("INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('c1', 'Before search', ?, ?)").run(NOW, NOW);
    const insert = older.$client.prepare(
      "INSERT INTO messages (id, conversation_id, seq, turn_id, role, text, status, created_at, updated_at) VALUES (?, 'c1', ?, ?, 'assistant', ?, 'complete', ?, ?)",
    );
    older.$client.transaction(() => {
      for (let index = 0; index < 4000; index += 1) insert.run(`m${index}`, index, `t${index}`, `reply ${index} mentions cormorant${index}`, NOW, NOW);
    })();
    older.$client.close();
    const core = open(dataDir);
    const output = capture();
    expect(await searchCommand(core, output, { query: 'cormorant3999', json: true, pollMs: 20 })).toBe(0);
    expect(output.err).toMatch(/^Indexing older messages for search: \d+%\n/);
    expect(JSON.parse(output.out).map((hit: { message_id: string }) => hit.message_id)).toEqual(['m3999']);
  });

  it('is an Api command whose input is validated like every other', async () => {
    const core = seeded();
    expect(await core.dispatch('searchMessages', { query: 'dusk', limit: 0 })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await core.dispatch('searchMessages', { query: '"(NOT* zzz' })).toEqual({ ok: true, value: { hits: [], indexing: null } });
  });
});
