import { describe, expect, it } from 'vitest';
import { listConversations, updateConversation } from '../store/conversations';
import { openTestDatabase } from '../store/test-database';
import { chatGptExportToTranscripts } from './foreign/chatgpt';
import { claudeExportToTranscripts } from './foreign/claude';
import { importFile, type ForeignConverters } from './import-file';
import { chatGptSharedDrafts, nestedValue } from './testing/hostile-imports';

const CONVERTERS: ForeignConverters = { chatgpt: chatGptExportToTranscripts, claude: claudeExportToTranscripts };
const ignoreProgress = (): void => {};

function transcriptWith(messages: unknown[]): string {
  return JSON.stringify({ format: 'anybrain.transcript', version: 1, conversation: { id: 'c', title: 'Hostile', created_at: '2026-01-01T00:00:00.000Z' }, messages });
}

describe('importFile on hostile files', () => {
  it('keeps a megabyte title to its first 500 characters, its cut said, and a rename too', async () => {
    const db = openTestDatabase();
    const huge = 'T'.repeat(1_000_000);
    const transcript = JSON.stringify({
      format: 'anybrain.transcript', version: 1, conversation: { id: 'c', title: huge, created_at: '2026-01-01T00:00:00.000Z' },
      messages: [{ id: 'm1', turn_id: 't1', role: 'user', kind: 'chat', text: 'a' }],
    });
    await importFile(db, transcript, CONVERTERS, ignoreProgress);
    expect(listConversations(db).map((conversation) => conversation.title)).toEqual([`${'T'.repeat(499)}…`]);

    // A rename from anywhere is held to the same length.
    const [conversation] = listConversations(db);
    expect(updateConversation(db, conversation!.id, { title: `${huge}!` })?.title).toBe(`${'T'.repeat(499)}…`);
  });

  it('stores a draft shared by 200 alternatives once: stored text about the size of the file', async () => {
    const db = openTestDatabase();
    const file = JSON.stringify(chatGptSharedDrafts({ conversations: 4, draftCharacters: 50_000, alternatives: 200 }));
    await importFile(db, file, CONVERTERS, ignoreProgress);
    const { stored } = db.$client.prepare('SELECT sum(length(text)) AS stored FROM messages').get() as { stored: number };
    expect(stored).toBeLessThan(Buffer.byteLength(file));
  });

  it('refuses a transcript whose message id appears twice, and a tool input 2,000 levels deep, naming the path, storing nothing', async () => {
    const db = openTestDatabase();
    const repeated = transcriptWith([
      { id: 'm1', turn_id: 't1', role: 'user', kind: 'chat', text: 'a' },
      { id: 'm1', turn_id: 't1', role: 'assistant', kind: 'chat', text: 'b' },
    ]);
    await expect(importFile(db, repeated, CONVERTERS, ignoreProgress)).rejects.toThrow(
      'The file is not a valid Anybrain transcript: messages[1].id: the id "m1" appears twice (also at messages[0].id). Nothing was imported.',
    );
    const deep = transcriptWith([
      { id: 'm1', turn_id: 't1', role: 'user', kind: 'chat', text: 'a' },
      { id: 'm2', turn_id: 't1', role: 'assistant', kind: 'chat', text: 'b', tool_invocations: [{ id: 'i', kind: 'tool', tool: 'x', input: nestedValue(2_000), status: 'ok' }] },
    ]);
    await expect(importFile(db, deep, CONVERTERS, ignoreProgress)).rejects.toThrow(
      'The file is not a valid Anybrain transcript: messages[1].tool_invocations[0].input: nested more than 100 levels deep. Nothing was imported.',
    );
    expect(listConversations(db)).toEqual([]);
  });
});
