import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { listConversations } from '../store/conversations';
import { listInvocationsByMessage } from '../store/invocations';
import { listAllMessages, listLiveMessages } from '../store/messages';
import { openTestDatabase } from '../store/test-database';
import { chatGptExportToTranscripts } from './foreign/chatgpt';
import { claudeExportToTranscripts, isClaudeExport } from './foreign/claude';
import { importFile, type ForeignConverters } from './import-file';

const FIXTURE = join(__dirname, '../../../e2e/fixtures/chatgpt-export/conversations.json');
const exportText = (): string => readFileSync(FIXTURE, 'utf8');
const CONVERTERS: ForeignConverters = { chatgpt: chatGptExportToTranscripts, claude: claudeExportToTranscripts };
const ignoreProgress = (): void => {};

function transcriptV1(title: string) {
  return {
    format: 'anybrain.transcript',
    version: 1,
    conversation: { id: `old-${title}`, title, created_at: '2026-01-01T00:00:00.000Z' },
    messages: [
      { id: 'm1', turn_id: 't1', role: 'user', kind: 'chat', text: `question of ${title}` },
      { id: 'm2', turn_id: 't1', role: 'assistant', kind: 'chat', text: `answer of ${title}`, status: 'complete', brain: 'kimi' },
    ],
  };
}

/** Many ChatGPT conversations, each one exchange. */
function manyChatGptConversations(count: number): unknown[] {
  return Array.from({ length: count }, (_, index) => ({
    title: `Chat ${index}`,
    create_time: 1_700_000_000 + index,
    current_node: 'a',
    mapping: {
      u: { id: 'u', parent: null, children: ['a'], message: { id: 'u', author: { role: 'user' }, content: { content_type: 'text', parts: [`q${index}`] } } },
      a: {
        id: 'a',
        parent: 'u',
        children: [],
        message: { id: 'a', author: { role: 'assistant' }, content: { content_type: 'text', parts: [`a${index}`] }, metadata: { model_slug: 'gpt-4o' } },
      },
    },
  }));
}

describe('importFile', () => {
  it('imports ChatGPT\u2019s conversations.json: every branch, the one last seen live, reasoning and the code run as rows, one skipped with its reason', async () => {
    const db = openTestDatabase();
    const progress: Array<[number, number]> = [];
    const outcome = await importFile(db, exportText(), CONVERTERS, (done, total) => progress.push([done, total]));
    expect(outcome).toMatchObject({
      source: 'chatgpt',
      messages: 8,
      skipped: [{ title: 'Lost thread', reason: 'its current_node "gone" is not in its mapping' }],
    });
    expect(outcome.conversationIds).toHaveLength(2);
    expect(progress.at(-1)).toEqual([2, 2]);
    expect(listConversations(db).map((conversation) => conversation.title).sort()).toEqual(['Counting primes', 'Greetings']);

    const all = listAllMessages(db, outcome.conversationIds[0]!);
    // The question before it was edited, and its answer, are the other branch.
    expect(all.slice(0, 2).map((row) => [row.role, row.text, row.parentId === null ? null : all.findIndex((other) => other.id === row.parentId), row.onLivePath])).toEqual([
      ['user', 'How many primes are below 100?', null, 0],
      ['assistant', 'There are 25 primes below 100.', 0, 0],
    ]);
    const rows = listLiveMessages(db, outcome.conversationIds[0]!);
    expect(rows.map((row) => [row.role, row.text, row.brain, row.modelResponded, row.createdAt])).toEqual([
      ['user', 'How many primes are below 1000? Please compute it.', null, null, '2024-12-05T12:01:00.000Z'],
      [
        'assistant',
        'There are **168** primes below 1000. The sieve printed `168`, and "\\"quoted\\"" text stays as written.',
        'codex',
        'o3',
        '2024-12-05T12:01:01.000Z',
      ],
      ['user', '[image: primes-chart.png, not included in the export]\n\nWhat does this chart show?', null, null, '2024-12-05T12:02:00.000Z'],
      ['assistant', 'It plots how many primes lie below each bound: the curve flattens as the bound grows.', 'codex', 'gpt-4o', '2024-12-05T12:02:04.000Z'],
    ]);
    expect(rows[1]?.reasoning).toEqual({
      brain: 'codex',
      model: 'o3',
      text: "Counting primes\n\nI'll run a sieve of Eratosthenes up to 1000 rather than recall the number.\n\nThought for 4s",
      opaque: null,
    });
    expect(listInvocationsByMessage(db, [rows[1]!.id]).get(rows[1]!.id)).toMatchObject([
      { kind: 'tool', server: 'chatgpt', tool: 'python', output: '168', status: 'ok', input: { code: expect.stringContaining('primes_below(1000)') as unknown } },
    ]);
  });

  it('reads the zip ChatGPT sends, finding conversations.json among its other files', async () => {
    const db = openTestDatabase();
    const zip = zipSync({
      'chat.html': strToU8('<html>not read</html>'),
      'user.json': strToU8('{"email":"someone@example.com"}'),
      'file-Abc123-primes-chart.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
      'conversations.json': strToU8(exportText()),
    });
    const outcome = await importFile(db, zip, CONVERTERS, ignoreProgress);
    expect(outcome).toMatchObject({ source: 'chatgpt', messages: 8 });
    expect(listConversations(db)).toHaveLength(2);
    await expect(importFile(db, zipSync({ 'chat.html': strToU8('<html></html>') }), CONVERTERS, ignoreProgress)).rejects.toThrow(
      'The zip holds no conversations.json, so it is not a ChatGPT data export. Nothing was imported.',
    );
  });

  it('reads an export zip whose conversations come in numbered shards, in order, skipping macOS resource forks', async () => {
    const db = openTestDatabase();
    const conversations = manyChatGptConversations(5);
    const zip = zipSync({
      'export/conversations-001.json': strToU8(JSON.stringify(conversations.slice(3))),
      'export/conversations-000.json': strToU8(JSON.stringify(conversations.slice(0, 3))),
      '__MACOSX/export/._conversations-000.json': strToU8('junk'),
      'export/chat.html': strToU8('<html></html>'),
    });
    const outcome = await importFile(db, zip, CONVERTERS, ignoreProgress);
    expect(outcome).toMatchObject({ source: 'chatgpt', messages: 10 });
    const titles = outcome.conversationIds.map((id) => listConversations(db).find((conversation) => conversation.id === id)?.title);
    expect(titles).toEqual(['Chat 0', 'Chat 1', 'Chat 2', 'Chat 3', 'Chat 4']);
    const badShard = zipSync({ 'conversations-000.json': strToU8('[]'), 'conversations-001.json': strToU8('{"mapping') });
    await expect(importFile(db, badShard, CONVERTERS, ignoreProgress)).rejects.toThrow(/^conversations-001\.json in the zip is not JSON \(/);
  });

  it('refuses a malformed export whole, naming the first bad path, and writes nothing', async () => {
    const db = openTestDatabase();
    const broken = JSON.parse(exportText()) as Array<Record<string, unknown>>;
    broken[2] = { ...broken[2], current_node: 42 };
    await expect(importFile(db, JSON.stringify(broken), CONVERTERS, ignoreProgress)).rejects.toThrow(
      'The file is not a readable ChatGPT export: conversations[2].current_node: Invalid input: expected string, received number. Nothing was imported.',
    );
    await expect(importFile(db, '[{"title": "no tree"}]', CONVERTERS, ignoreProgress)).rejects.toThrow(
      'The file is neither an Anybrain transcript nor a ChatGPT or Claude data export (conversations.json). Nothing was imported.',
    );
    await expect(importFile(db, '[{"mapping": {}', CONVERTERS, ignoreProgress)).rejects.toThrow(/^The file is not JSON \(/);
    expect(listConversations(db)).toEqual([]);
  });

  it('writes many conversations in one transaction: a failure in the middle leaves none of them', async () => {
    const db = openTestDatabase();
    // The 150th conversation's first message fails to insert, after 149 conversations were written.
    db.$client.exec("CREATE TRIGGER fail_mid_import BEFORE INSERT ON messages WHEN new.text = 'q149' BEGIN SELECT RAISE(ABORT, 'disk trouble'); END;");
    await expect(importFile(db, JSON.stringify(manyChatGptConversations(212)), CONVERTERS, ignoreProgress)).rejects.toThrow('disk trouble');
    expect(listConversations(db)).toEqual([]);
    db.$client.exec('DROP TRIGGER fail_mid_import');
    const outcome = await importFile(db, JSON.stringify(manyChatGptConversations(212)), CONVERTERS, ignoreProgress);
    expect([outcome.conversationIds.length, outcome.messages]).toEqual([212, 424]);
    expect(listConversations(db)).toHaveLength(212);
  });

  it('checks every converted conversation before writing any, naming the one at fault', async () => {
    const db = openTestDatabase();
    const faulty: ForeignConverters = {
      ...CONVERTERS,
      chatgpt: () => ({ transcripts: [transcriptV1('fine'), { ...transcriptV1('bad'), messages: [{ id: 'x', turn_id: 't', role: 'robot', kind: 'chat', text: '' }] }] as never, skipped: [] }),
    };
    await expect(importFile(db, exportText(), faulty, ignoreProgress)).rejects.toThrow(
      'Conversation 2 ("bad"): The file is not a valid Anybrain transcript: messages[0].role: Invalid option: expected one of "user"|"assistant"|"system". Nothing was imported.',
    );
    expect(listConversations(db)).toEqual([]);
  });

  it('still imports a transcript v1, and routes a Claude export to its converter', async () => {
    const db = openTestDatabase();
    const transcript = await importFile(db, `\uFEFF${JSON.stringify(transcriptV1('kept'))}`, CONVERTERS, ignoreProgress);
    expect(transcript).toMatchObject({ source: 'anybrain', messages: 2, skipped: [] });
    await expect(importFile(db, JSON.stringify({ format: 'other' }), CONVERTERS, ignoreProgress)).rejects.toThrow(
      'The file is not an Anybrain transcript (format is not "anybrain.transcript"). Nothing was imported.',
    );

    const claudeExport = [{ uuid: 'c1', name: 'From Claude', chat_messages: [] }];
    expect(isClaudeExport(claudeExport)).toBe(true);
    expect(isClaudeExport(JSON.parse(exportText()))).toBe(false);
    const received: unknown[] = [];
    const withClaude: ForeignConverters = {
      ...CONVERTERS,
      claude: (document) => {
        received.push(document);
        return { transcripts: [transcriptV1('From Claude')] as never, skipped: [] };
      },
    };
    expect(await importFile(db, JSON.stringify(claudeExport), withClaude, ignoreProgress)).toMatchObject({ source: 'claude', messages: 2 });
    expect(received).toEqual([claudeExport]);
  });

  it('imports Claude\'s data export whole: the readable conversations written, the rest named as skipped', async () => {
    const db = openTestDatabase();
    const claudeFile = readFileSync(join(__dirname, '../../../e2e/fixtures/claude-export/conversations.json'), 'utf8');
    const outcome = await importFile(db, claudeFile, CONVERTERS, ignoreProgress);
    expect(outcome.source).toBe('claude');
    expect(outcome.conversationIds).toHaveLength(listConversations(db).length);
    expect(outcome.skipped.map((entry) => entry.reason)).toHaveLength(2);
    const replies = outcome.conversationIds.flatMap((id) => listAllMessages(db, id)).filter((row) => row.role === 'assistant');
    expect(replies.some((row) => row.reasoning !== null)).toBe(true);
  });
});
