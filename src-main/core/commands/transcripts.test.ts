import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, type ApiEvent, type CommandInput, type CommandName, type CommandOutput } from '../../../src-shared/api';
import { openCore, type OpenedCore } from '../app';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function open(): OpenedCore {
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-commands-'));
  const core = openCore({ dataDir, env: {} });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose());
  return core;
}

async function call<Name extends CommandName>(core: OpenedCore, name: Name, input: CommandInput<Name>): Promise<CommandOutput<Name>> {
  const result = await core.dispatch(name, input);
  if (!result.ok) throw new ApiError(result.error.code, result.error.message);
  return result.value as CommandOutput<Name>;
}

const ESCAPED_REPLY = 'She said \\"yes\\".';

async function importLegacyReply(core: OpenedCore): Promise<string> {
  const transcript = {
    format: 'anybrain.transcript',
    version: 1,
    conversation: { id: 'legacy', title: 'Legacy', created_at: '2025-01-01T00:00:00.000Z' },
    messages: [
      { id: 'm1', turn_id: 't1', role: 'user', kind: 'chat', text: 'What did she say?' },
      { id: 'm2', turn_id: 't1', role: 'assistant', kind: 'chat', status: 'complete', text: ESCAPED_REPLY },
    ],
  };
  return (await call(core, 'importTranscript', { content: JSON.stringify(transcript) })).id;
}

describe('the data health and repair commands', () => {
  it('count what doctor prints, over the Api', async () => {
    const core = open();
    await importLegacyReply(core);
    expect(await call(core, 'getDataHealth', {})).toEqual({
      integrity: 'ok',
      foreignKeyProblems: 0,
      interruptedReplies: 0,
      streamingReplies: 0,
      failedReplies: 0,
      stoppedReplies: 0,
      interruptedAtThisStart: 0,
      leftoversRemovedAtThisStart: { files: 0, bytes: 0 },
      leftoversKept: { files: 0, bytes: 0 },
      chromeRows: 0,
      quoteEscapeRows: 1,
      quoteEscapeNormalizations: 0,
      staleLivePaths: 0,
    });
  });

  it('show a repair without applying it, apply it, and undo it exactly', async () => {
    const core = open();
    const conversationId = await importLegacyReply(core);
    const texts = async () => (await call(core, 'listMessages', { conversationId })).messages.map((message) => message.text);

    const dryRun = await call(core, 'repairTexts', { kind: 'quote-escapes' });
    expect(dryRun.changed).toBeNull();
    expect(dryRun.changes.map(({ before, after }) => ({ before, after }))).toEqual([{ before: ESCAPED_REPLY, after: 'She said "yes".' }]);
    expect(await texts()).toEqual(['What did she say?', ESCAPED_REPLY]);

    expect((await call(core, 'repairTexts', { kind: 'quote-escapes', apply: true })).changed).toBe(1);
    expect(await texts()).toEqual(['What did she say?', 'She said "yes".']);
    expect((await call(core, 'getDataHealth', {})).quoteEscapeNormalizations).toBe(2);

    expect(await call(core, 'undoRepair', {})).toEqual({ kind: 'quote-escapes', restored: 1, skipped: 0 });
    expect(await texts()).toEqual(['What did she say?', ESCAPED_REPLY]);
    expect(await call(core, 'undoRepair', {})).toEqual({ kind: null, restored: 0, skipped: 0 });
    expect(await core.dispatch('repairTexts', { kind: 'everything' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('export with the optional fields: chosen turns, calls and reasoning; unknown turns and bad fields refused', async () => {
    const core = open();
    const conversationId = await importLegacyReply(core);
    const [turnId] = (await call(core, 'listMessages', { conversationId })).messages.map((message) => message.turnId);
    const exported = await call(core, 'exportConversation', { id: conversationId, format: 'md', includeTools: false, includeReasoning: true, turnIds: [turnId!] });
    expect(exported.content).toContain('What did she say?');
    expect(await core.dispatch('exportConversation', { id: conversationId, format: 'md', turnIds: ['t9'] })).toEqual({
      ok: false,
      error: { code: 'not-found', message: `Conversation ${conversationId} has no turn with id t9.` },
    });
    for (const input of [{ turnIds: [] }, { turnIds: [''] }, { includeTools: 'no' }, { colour: 'blue' }]) {
      expect(await core.dispatch('exportConversation', { id: conversationId, format: 'md', ...input })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    }
  });
});

describe('importConversations', () => {
  const chatGptExport = (): Array<Record<string, unknown>> =>
    JSON.parse(readFileSync(join(__dirname, '../../../e2e/fixtures/chatgpt-export/conversations.json'), 'utf8')) as Array<Record<string, unknown>>;

  /** One ChatGPT conversation whose words carry chrome and escaped quotes, in the user's message and in the reply. */
  const chromeBearing = {
    title: 'Pasted from elsewhere',
    create_time: 1_733_000_000,
    current_node: 'a',
    mapping: {
      u: {
        id: 'u',
        parent: null,
        children: ['a'],
        message: { id: 'u', author: { role: 'user' }, content: { content_type: 'text', parts: ['Keep my <details>notes</details> and \\"quotes\\" as I wrote them.'] } },
      },
      a: {
        id: 'a',
        parent: 'u',
        children: [],
        message: {
          id: 'a',
          author: { role: 'assistant' },
          metadata: { model_slug: 'gpt-4o' },
          content: { content_type: 'text', parts: ['<details><summary>Step 1</summary>searched</details>\n\nDone: she said \\"yes\\".\n\n2 tools'] },
        },
      },
    },
  };

  it('imports a zip sent as base64 with progress, then doctor and repair fix the replies it brought and never the user\u2019s words', async () => {
    const core = open();
    const events: ApiEvent[] = [];
    core.onEvent((event) => events.push(event));
    const zip = zipSync({ 'conversations.json': strToU8(JSON.stringify([...chatGptExport(), chromeBearing])), 'chat.html': strToU8('<html></html>') });
    const summary = await call(core, 'importConversations', { name: 'export.zip', contentBase64: Buffer.from(zip).toString('base64') });
    expect(summary).toMatchObject({ source: 'chatgpt', conversations: 3, messages: 10, skipped: [{ title: 'Lost thread' }] });
    expect(events.filter((event) => event.type === 'import-progress').at(-1)).toEqual({ type: 'import-progress', name: 'export.zip', done: 3, total: 3 });
    expect(events.filter((event) => event.type === 'conversation-updated')).toHaveLength(3);

    // The o3 reply's \\" and the pasted reply's chrome and \\" came in with the import.
    expect(await call(core, 'getDataHealth', {})).toMatchObject({ chromeRows: 1, quoteEscapeRows: 2 });
    const conversationId = summary.conversationIds[2]!;
    const texts = async () => (await call(core, 'listMessages', { conversationId })).messages.map((message) => message.text);
    const userText = 'Keep my <details>notes</details> and \\"quotes\\" as I wrote them.';

    expect((await call(core, 'repairTexts', { kind: 'chrome', apply: true })).changed).toBe(1);
    expect((await call(core, 'repairTexts', { kind: 'quote-escapes', apply: true })).changed).toBe(2);
    expect(await texts()).toEqual([userText, 'Done: she said "yes".']);
    expect(await call(core, 'getDataHealth', {})).toMatchObject({ chromeRows: 0, quoteEscapeRows: 0 });
  });

  it('takes exactly one of content and contentBase64, and refuses a malformed file naming its first bad path', async () => {
    const core = open();
    expect(await core.dispatch('importConversations', { name: 'x.json' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await core.dispatch('importConversations', { name: 'x.json', content: '[]', contentBase64: 'W10=' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    const broken = chatGptExport();
    broken[1] = { ...broken[1], mapping: [] };
    expect(await core.dispatch('importConversations', { name: 'conversations.json', content: JSON.stringify(broken) })).toEqual({
      ok: false,
      error: {
        code: 'invalid-transcript',
        message: 'The file is not a readable ChatGPT export: conversations[1].mapping: Invalid input: expected record, received array. Nothing was imported.',
      },
    });
    expect(await call(core, 'listConversations', {})).toEqual([]);
  });
});
