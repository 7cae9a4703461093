/**
 * Every write command of the Api under each way the store refuses: another process holding the write lock past the
 * busy wait, and a disk that takes no new page. Each answers ok only with its change on the disk (read by a second
 * connection), or an error a person can act on with nothing changed; no throw reaches the event loop, and once the
 * fault is gone the same core writes again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandName } from '../../../src-shared/api';
import { DATABASE_FILE, openCore, type OpenedCore } from '../app';
import { pngFile } from '../attachments/test-files';
import type { ProviderCall, StreamPart } from '../providers/stream-parts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function* briefBrain(call: ProviderCall): AsyncIterable<StreamPart> {
  void call;
  yield { type: 'text-delta', text: 'Fine.' };
  yield { type: 'finish', reason: 'stop', rawReason: 'stop' };
}

async function value<T>(core: OpenedCore, name: CommandName, input: unknown): Promise<T> {
  const result = await core.dispatch(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as T;
}

/** Where the full-disk fault fills the database's free room; not the app's own data. */
const PADDING = 'fault_padding';

/** Every row of every ordinary table, as a second connection reads them: what is on the disk. */
function everyRow(reader: Database.Database): string {
  const tables = reader.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts%' AND name <> ? ORDER BY name").pluck().all(PADDING) as string[];
  return JSON.stringify(tables.map((table) => [table, reader.prepare(`SELECT * FROM "${table}"`).raw(true).all()]));
}

interface Seeded {
  readonly conversationId: string;
  readonly otherConversationId: string;
  readonly memoryId: string;
  readonly attachmentId: string;
}

async function seed(core: OpenedCore): Promise<Seeded> {
  const conversation = await value<{ id: string }>(core, 'createConversation', { title: 'Faults', brain: 'claude' });
  const other = await value<{ id: string }>(core, 'createConversation', { title: 'Other', brain: 'claude' });
  const memory = await value<{ id: string }>(core, 'addMemory', { text: 'likes tea' });
  const attachment = await value<{ id: string }>(core, 'addAttachment', { name: 'dot.png', dataBase64: pngFile(2, 2).toString('base64') });
  return { conversationId: conversation.id, otherConversationId: other.id, memoryId: memory.id, attachmentId: attachment.id };
}

/** Longer than a page's free room, so a write of it needs a new page. */
const LONG = 'A line that fills the page. '.repeat(140).slice(0, 4000);

/** One call of each command that writes, with an input that changes what is stored. */
function writeCommands(seeded: Seeded): ReadonlyArray<readonly [CommandName, unknown]> {
  const transcript = {
    format: 'anybrain.transcript', version: 1, conversation: { id: 'imported', title: 'Imported', created_at: '2026-01-01T00:00:00.000Z' },
    messages: [{ id: 'u1', turn_id: 't1', role: 'user', kind: 'chat', text: LONG.repeat(4) }],
  };
  return [
    ['createConversation', { title: LONG.slice(0, 500), brain: 'gemini' }],
    ['renameConversation', { id: seeded.conversationId, title: LONG.slice(0, 500) }],
    ['setConversationBrain', { id: seeded.conversationId, brain: 'kimi' }],
    ['addMemory', { text: LONG }],
    ['updateMemory', { id: seeded.memoryId, text: LONG.slice(1) }],
    ['addAttachment', { name: 'other.png', dataBase64: pngFile(3, 3).toString('base64') }],
    ['setDefaultBrain', { brain: 'grok' }],
    ['setTheme', { theme: 'dark' }],
    ['setCompactionBrain', { brain: 'gemini' }],
    ['setGrantedFolders', { folders: [tmpdir()] }],
    ['importTranscript', { content: JSON.stringify(transcript) }],
    ['importConversations', { name: 'chat.json', content: JSON.stringify({ ...transcript, conversation: { ...transcript.conversation, id: 'imported-2' } }) }],
    ['send', { conversationId: seeded.conversationId, text: LONG }],
    ['removeAttachment', { id: seeded.attachmentId }],
    ['deleteMemory', { id: seeded.memoryId }],
    ['deleteConversation', { id: seeded.otherConversationId }],
  ];
}

describe.each([
  {
    fault: 'another process holding the write lock',
    refusal: 'storage-busy',
    apply: (core: OpenedCore, dataDir: string) => {
      const holder = new Database(join(dataDir, DATABASE_FILE));
      holder.exec('BEGIN IMMEDIATE');
      return () => {
        holder.exec('ROLLBACK');
        holder.close();
      };
    },
  },
  {
    fault: 'a full disk',
    refusal: 'disk-full',
    apply: (core: OpenedCore) => {
      const sqlite = core.db.$client;
      sqlite.exec(`CREATE TABLE ${PADDING} (bytes BLOB)`);
      sqlite.pragma(`max_page_count = ${sqlite.pragma('page_count', { simple: true }) as number}`);
      // The free room left in the pages filled to the brim, so any write that needs room finds none.
      const pad = sqlite.prepare(`INSERT INTO ${PADDING} VALUES (zeroblob(?))`);
      for (const size of [65_536, 4_096, 512, 64, 8, 1]) {
        for (;;) {
          try {
            pad.run(size);
          } catch (error) {
            if ((error as { code?: unknown }).code !== 'SQLITE_FULL') throw error;
            break;
          }
        }
      }
      return () => sqlite.pragma('max_page_count = 1073741823');
    },
  },
])('every write command under $fault', ({ refusal, apply }) => {
  it('answers ok only with its change on the disk, or the refusal with nothing changed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-every-write-'));
    // Tried again for 100 ms instead of 5 s, so the test does not wait it out for every command.
    const core = openCore({ dataDir, env: { ANTHROPIC_API_KEY: 'k', MOONSHOT_API_KEY: 'k' }, stream: briefBrain, exportArchives: 'in-process', busyBudgetMs: 100 });
    const reader = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose(), () => void reader.close());
    const seeded = await seed(core);
    const lift = apply(core, dataDir);
    const refused: string[] = [];
    for (const [name, input] of writeCommands(seeded)) {
      const before = everyRow(reader);
      const result = await core.dispatch(name, input);
      if (name === 'send' && result.ok) await core.engine.settled(seeded.conversationId);
      if (result.ok) {
        expect(everyRow(reader), `${name} answered ok`).not.toBe(before);
      } else {
        expect(result.error.code, `${name}: ${result.error.message}`).toBe(refusal);
        expect(everyRow(reader), `${name} was refused`).toBe(before);
        refused.push(name);
      }
    }
    if (refusal === 'storage-busy') expect(refused).toEqual(writeCommands(seeded).map(([name]) => name));
    else expect(refused).toEqual(expect.arrayContaining(['addMemory', 'importTranscript', 'importConversations', 'send']));
    lift();
    expect((await core.dispatch('createConversation', { title: 'After' })).ok).toBe(true);
  });
});
