import { describe, expect, it } from 'vitest';
import { listConversations } from '../store/conversations';
import { listInvocationsByMessage } from '../store/invocations';
import { currentLeafId } from '../store/branches';
import { foldIntoSummary } from '../store/compaction';
import { insertMessage, listAllMessages, listLiveMessages } from '../store/messages';
import { openTestDatabase } from '../store/test-database';
import { buildTranscript } from './export';
import { importTranscript, TranscriptImportError } from './import';
import { seedBranchedConversation, withoutIds } from './export-testing';
import { writeTrickyCorpus } from './testing/tricky-corpus';

const transcript = {
  format: 'anybrain.transcript',
  version: 1,
  conversation: { id: 'old-c', title: 'Imported 안녕', created_at: '2026-01-01T00:00:00.000Z', extra: 'kept or ignored' },
  messages: [
    { id: 'm1', turn_id: 't1', role: 'user', kind: 'chat', text: 'He said \\"hi\\" <details>x</details>', created_at: '2026-01-01T00:00:01.000Z' },
    {
      id: 'm2', turn_id: 't1', role: 'assistant', kind: 'chat', text: 'It is noon. 🌞', status: 'complete', brain: 'kimi',
      model_requested: 'kimi-k2.6', model_responded: 'kimi-k2.6', reasoning_level: 'high',
      reasoning: { brain: 'kimi', model: 'kimi-k2.6', text: 'clock', opaque: { blocks: [] } },
      tool_invocations: [{ id: 'i1', kind: 'tool', server: null, tool: 'current_time', provider_call_id: 'functions.current_time:0', input: {}, output: 'noon', status: 'ok' }],
      unknown_field: 42,
    },
    { id: 'm3', turn_id: 't2', role: 'system', kind: 'notice', text: 'Switched brain.' },
  ],
};

describe('importTranscript', () => {
  it('imports every text exactly, with new ids, calls and reasoning, and round-trips through export', () => {
    const db = openTestDatabase();
    const conversationId = importTranscript(db, JSON.stringify(transcript));
    expect(listConversations(db).map((conversation) => conversation.title)).toEqual(['Imported 안녕']);
    const rows = listAllMessages(db, conversationId);
    expect(rows.map((row) => [row.role, row.kind, row.text, row.status])).toEqual([
      ['user', 'chat', 'He said \\"hi\\" <details>x</details>', 'complete'],
      ['assistant', 'chat', 'It is noon. 🌞', 'complete'],
      ['system', 'notice', 'Switched brain.', 'complete'],
    ]);
    expect(rows.map((row) => row.id)).not.toContain('m1');
    expect(rows[0]?.turnId).toBe(rows[1]?.turnId);
    expect(rows[0]?.turnId).not.toBe('t1');
    expect(listInvocationsByMessage(db, [rows[1]!.id]).get(rows[1]!.id)).toMatchObject([{ tool: 'current_time', providerCallId: 'functions.current_time:0', output: 'noon', status: 'ok' }]);

    const exported = buildTranscript(db, conversationId);
    expect(exported.messages.map((message) => message.text)).toEqual(transcript.messages.map((message) => message.text));
    expect(exported.messages[1]).toMatchObject({ brain: 'kimi', model_requested: 'kimi-k2.6', model_responded: 'kimi-k2.6', reasoning_level: 'high' });
  });

  it('keeps a tool result\u2019s images (the `images` extension) through import and export', () => {
    const db = openTestDatabase();
    const images = [{ mime_type: 'image/png', data: 'iVBORw0KGgo=' }];
    const withImage = {
      ...transcript,
      messages: [
        transcript.messages[0],
        {
          ...transcript.messages[1],
          tool_invocations: [{ id: 'i1', kind: 'tool', server: 'everything', tool: 'get-tiny-image', provider_call_id: 'p1', input: {}, output: 'A logo:', status: 'ok', images }],
        },
      ],
    };
    const conversationId = importTranscript(db, JSON.stringify(withImage));
    const [reply] = listAllMessages(db, conversationId).filter((row) => row.role === 'assistant');
    expect(listInvocationsByMessage(db, [reply!.id]).get(reply!.id)?.[0]?.images).toEqual([{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }]);
    expect(buildTranscript(db, conversationId).messages[1]?.tool_invocations?.[0]).toMatchObject({ output: 'A logo:', images });
    // Without images, an invocation exports as before.
    expect(buildTranscript(db, importTranscript(db, JSON.stringify(transcript))).messages[1]?.tool_invocations?.[0]).not.toHaveProperty('images');
    const notBase64 = { ...withImage, messages: [withImage.messages[0], { ...withImage.messages[1], tool_invocations: [{ ...withImage.messages[1]!.tool_invocations![0], images: [{ mime_type: 'image/png', data: '<svg>' }] }] }] };
    expect(() => importTranscript(db, JSON.stringify(notBase64))).toThrow(/messages\[1\]\.tool_invocations\[0\]\.images\[0\]\.data/);
  });

  it('refuses a malformed file whole, naming the first bad path, and imports nothing', () => {
    const db = openTestDatabase();
    const broken = { ...transcript, messages: [transcript.messages[0], transcript.messages[1], transcript.messages[2], { ...transcript.messages[0], role: 'robot' }] };
    expect(() => importTranscript(db, JSON.stringify(broken))).toThrow(
      'The file is not a valid Anybrain transcript: messages[3].role: Invalid option: expected one of "user"|"assistant"|"system". Nothing was imported.',
    );
    expect(() => importTranscript(db, '{"format":"anybrain.transcript"')).toThrow(TranscriptImportError);
    expect(() => importTranscript(db, '{"format":"other"}')).toThrow('The file is not an Anybrain transcript (format is not "anybrain.transcript"). Nothing was imported.');
    expect(listConversations(db)).toEqual([]);
  });

  it('reads a file without carriers or errors as before: no opaque on its calls, no error on its replies', () => {
    const db = openTestDatabase();
    const rows = listAllMessages(db, importTranscript(db, JSON.stringify(transcript)));
    expect(rows.map((row) => row.error)).toEqual([null, null, null]);
    expect(listInvocationsByMessage(db, [rows[1]!.id]).get(rows[1]!.id)?.map((row) => row.opaque)).toEqual([null]);
  });

  it('rolls back a half-written import', () => {
    const db = openTestDatabase();
    db.$client.exec("CREATE TRIGGER fail_third BEFORE INSERT ON messages WHEN new.seq = 2 BEGIN SELECT RAISE(ABORT, 'disk trouble'); END;");
    expect(() => importTranscript(db, JSON.stringify(transcript))).toThrow('disk trouble');
    expect(listConversations(db)).toEqual([]);
  });
});

describe('summaries in transcripts', () => {
  const exchange = (index: number) => [
    { id: `u${index}`, turn_id: `t${index}`, role: 'user', kind: 'chat', text: `question ${index}` },
    { id: `a${index}`, turn_id: `t${index}`, role: 'assistant', kind: 'chat', text: `answer ${index}`, status: 'complete', brain: 'kimi' },
  ];
  const compacted = {
    format: 'anybrain.transcript',
    version: 1,
    conversation: { id: 'old', title: 'Compacted twice', created_at: '2026-01-01T00:00:00.000Z' },
    messages: [
      ...exchange(1),
      ...exchange(2),
      { id: 's1', turn_id: 'ts1', role: 'system', kind: 'summary', text: 'Summary one.', covers_through_id: 'a1' },
      ...exchange(3),
      { id: 's2', turn_id: 'ts2', role: 'system', kind: 'summary', text: 'Summary two.', covers_through_id: 'a2' },
      ...exchange(4),
    ],
  };

  it('folds each summary over what it covered when it was written, and exports the same shape back', () => {
    const db = openTestDatabase();
    const conversationId = importTranscript(db, JSON.stringify(compacted));
    const rows = listAllMessages(db, conversationId);
    const idOf = (text: string) => rows.find((row) => row.text === text)!.id;
    expect(rows.map((row) => [row.text, row.compactedInto === null ? null : rows.find((other) => other.id === row.compactedInto)!.text])).toEqual([
      ['question 1', 'Summary one.'],
      ['answer 1', 'Summary one.'],
      ['question 2', 'Summary two.'],
      ['answer 2', 'Summary two.'],
      ['Summary one.', 'Summary two.'],
      ['question 3', null],
      ['answer 3', null],
      ['Summary two.', null],
      ['question 4', null],
      ['answer 4', null],
    ]);
    expect(rows.find((row) => row.text === 'Summary two.')?.coversThroughId).toBe(idOf('answer 2'));
    const exported = buildTranscript(db, conversationId).messages;
    expect(exported.filter((message) => message.kind === 'summary').map((message) => [message.text, message.covers_through_id])).toEqual([
      ['Summary one.', idOf('answer 1')],
      ['Summary two.', idOf('answer 2')],
    ]);
  });

  it('refuses a summary that names no message before it, and a covers_through_id on anything but a summary', () => {
    const db = openTestDatabase();
    const forward = { ...compacted, messages: compacted.messages.map((message) => (message.id === 's1' ? { ...message, covers_through_id: 'a4' } : message)) };
    expect(() => importTranscript(db, JSON.stringify(forward))).toThrow(
      'The file is not a valid Anybrain transcript: messages[4].covers_through_id: it names no message before this summary. Nothing was imported.',
    );
    const onChat = { ...compacted, messages: compacted.messages.map((message) => (message.id === 'u3' ? { ...message, covers_through_id: 'a1' } : message)) };
    expect(() => importTranscript(db, JSON.stringify(onChat))).toThrow('messages[5].covers_through_id: only a summary covers messages');
    expect(listConversations(db)).toEqual([]);
  });
});

describe('carriers and errors in transcripts', () => {
  const signedCall = { id: 'i1', kind: 'tool', server: null, tool: 'current_time', provider_call_id: null, input: { zone: 'UTC' }, output: 'noon', status: 'ok', opaque: { thoughtSignature: 'Q2FsbA==' } };
  const reasoning = { brain: 'gemini', model: 'gemini-3.1-pro-preview', text: 'Time.', opaque: { blocks: [{ thoughtSignature: 'VGV4dA==' }], positions: [1] } };
  const error = { code: 'context-too-large', message: 'Too large.', retryable: false, status: 400, retry_after_seconds: 2.5, limit_tokens: 1_048_576, request_tokens: 1_200_000 };
  const carrying = {
    format: 'anybrain.transcript',
    version: 1,
    conversation: { id: 'old', title: 'Signed', created_at: '2026-12-01T00:00:00.000Z' },
    messages: [
      { id: 'u1', turn_id: 't1', role: 'user', kind: 'chat', text: 'What time is it?' },
      {
        id: 'a1', turn_id: 't1', role: 'assistant', kind: 'chat', text: 'Noon.', status: 'complete', brain: 'gemini',
        model_requested: 'gemini-3.1-pro-preview', model_responded: 'gemini-3.1-pro-preview', reasoning_level: 'medium', reasoning, tool_invocations: [signedCall],
      },
      { id: 'u2', turn_id: 't2', role: 'user', kind: 'chat', text: 'Read it all.' },
      { id: 'a2', turn_id: 't2', role: 'assistant', kind: 'chat', text: '', status: 'failed', brain: 'gemini', model_requested: 'gemini-3.1-pro-preview', error },
    ],
  };

  it("keeps each call's and each reasoning's opaque carriers and each reply's error, and exports them back verbatim", () => {
    const db = openTestDatabase();
    const conversationId = importTranscript(db, JSON.stringify(carrying));
    const rows = listAllMessages(db, conversationId);
    expect(listInvocationsByMessage(db, [rows[1]!.id]).get(rows[1]!.id)?.map((row) => row.opaque)).toEqual([{ thoughtSignature: 'Q2FsbA==' }]);
    expect(rows[1]?.reasoning).toEqual(reasoning);
    expect(rows[3]?.error).toEqual({
      code: 'context-too-large', message: 'Too large.', retryable: false, status: 400, retryAfterSeconds: 2.5, limitTokens: 1_048_576, requestTokens: 1_200_000,
    });
    const exported = buildTranscript(db, conversationId).messages;
    expect(exported[1]?.tool_invocations?.map((invocation) => invocation.opaque)).toEqual([signedCall.opaque]);
    expect(exported[1]?.reasoning).toEqual(reasoning);
    expect(exported[3]?.error).toEqual(error);
  });

  it('refuses a call opaque that is not an object, reasoning blocks that are not a list, and an error without its fields, naming the path', () => {
    const db = openTestDatabase();
    const withReply = (reply: Record<string, unknown>) => JSON.stringify({ ...carrying, messages: [carrying.messages[0], { ...carrying.messages[1], ...reply }] });
    expect(() => importTranscript(db, withReply({ tool_invocations: [{ ...signedCall, opaque: 'Q2FsbA==' }] }))).toThrow(
      'The file is not a valid Anybrain transcript: messages[1].tool_invocations[0].opaque: Invalid input: expected object, received string. Nothing was imported.',
    );
    expect(() => importTranscript(db, withReply({ reasoning: { ...reasoning, opaque: { blocks: { thoughtSignature: 'VGV4dA==' } } } }))).toThrow(
      'The file is not a valid Anybrain transcript: messages[1].reasoning.opaque.blocks: Invalid input: expected array, received object. Nothing was imported.',
    );
    expect(() => importTranscript(db, withReply({ error: { code: 'rate-limited', message: 'Slow down.' } }))).toThrow(
      'The file is not a valid Anybrain transcript: messages[1].error.retryable: Invalid input: expected boolean, received undefined. Nothing was imported.',
    );
    expect(listConversations(db)).toEqual([]);
  });
});

describe('export, import, export', () => {
  it('gives the same document, ids aside, for every conversation of the tricky corpus', () => {
    const source = openTestDatabase();
    const corpus = writeTrickyCorpus(source);
    const target = openTestDatabase();
    for (const conversationId of corpus.conversationIds) {
      const exported = buildTranscript(source, conversationId);
      const reExported = buildTranscript(target, importTranscript(target, JSON.stringify(exported)));
      expect(withoutIds(reExported)).toEqual(withoutIds(exported));
    }
    // Each keeps the time it was started, and was last active at its newest message.
    const newestMessage = (conversationId: string) => buildTranscript(source, conversationId).messages.at(-1)?.created_at;
    expect(listConversations(target).map((conversation) => [conversation.title, conversation.createdAt, conversation.updatedAt]).sort()).toEqual(
      listConversations(source).map((conversation) => [conversation.title, conversation.createdAt, newestMessage(conversation.id)]).sort(),
    );
  });
});

describe('branches in transcripts', () => {
  /** What the window shows of a conversation: the live path's rows, by who said what. */
  const livePath = (db: ReturnType<typeof openTestDatabase>, conversationId: string) =>
    listLiveMessages(db, conversationId).map((row) => [row.role, row.brain, row.text]);

  /** Export, import into another database, export again: both documents, and both conversations. */
  const roundTrip = (source: ReturnType<typeof openTestDatabase>, conversationId: string) => {
    const target = openTestDatabase();
    const exported = buildTranscript(source, conversationId);
    const imported = importTranscript(target, JSON.stringify(exported));
    return { exported, target, imported, reExported: buildTranscript(target, imported) };
  };

  it('keeps every branch and the current leaf through export, import and export, and the same live path', () => {
    const source = openTestDatabase();
    const branched = seedBranchedConversation(source);
    const { exported, target, imported, reExported } = roundTrip(source, branched);
    expect(withoutIds(reExported)).toEqual(withoutIds(exported));
    expect(reExported.messages.map((message) => message.parent_id)).toEqual([null, 0, 1, 2, 1, 4, 4].map((index) => (index === null ? null : reExported.messages[index]!.id)));
    expect(reExported.conversation.current_leaf_id).toBe(reExported.messages[5]!.id);
    expect(livePath(target, imported)).toEqual(livePath(source, branched));
    expect(livePath(target, imported).map(([, , text]) => text)).toEqual(['Which sort is faster?', 'Quicksort, usually.', 'Why, in one line?', 'Locality.']);
  });

  it('folds a summary over the rows of the branch it covered, with branches below it', () => {
    const source = openTestDatabase();
    const conversationId = seedBranchedConversation(source);
    insertMessage(source, { id: 's', conversationId, seq: 7, turnId: 'ts', role: 'system', kind: 'summary', text: 'Sorting.', status: 'complete', coversThroughId: 'a1', createdAt: '2026-12-01T12:00:00.000Z' });
    foldIntoSummary(source, conversationId, 's', 'a1');
    const { exported, target, imported, reExported } = roundTrip(source, conversationId);
    expect(withoutIds(reExported)).toEqual(withoutIds(exported));
    const covered = (db: ReturnType<typeof openTestDatabase>, id: string) => listAllMessages(db, id).map((row) => [row.text, row.compactedInto === null ? null : 'Sorting.']);
    expect(covered(target, imported)).toEqual(covered(source, conversationId));
    expect(livePath(target, imported).map(([, , text]) => text)).toEqual(['Why, in one line?', 'Locality.']);
  });

  const file = (messages: Record<string, unknown>[], conversation: Record<string, unknown> = {}) =>
    JSON.stringify({ format: 'anybrain.transcript', version: 1, conversation: { id: 'c', title: 'Tree', created_at: '2026-01-01T00:00:00.000Z', ...conversation }, messages });
  const user = (id: string, fields: Record<string, unknown> = {}) => ({ id, turn_id: id, role: 'user', kind: 'chat', text: id, ...fields });

  it('links a message without parent_id to the message before it in the file, summaries aside, and makes the last one the leaf', () => {
    const db = openTestDatabase();
    const conversationId = importTranscript(
      db,
      file([user('q1'), user('q2', { parent_id: null }), user('q3'), { id: 's', turn_id: 's', role: 'system', kind: 'summary', text: 's', covers_through_id: 'q1' }, user('q4')]),
    );
    const rows = listAllMessages(db, conversationId);
    const textOf = (id: string | null) => rows.find((row) => row.id === id)?.text ?? null;
    expect(rows.map((row) => [row.text, textOf(row.parentId)])).toEqual([['q1', null], ['q2', null], ['q3', 'q2'], ['s', null], ['q4', 'q3']]);
    expect(textOf(currentLeafId(db, conversationId))).toBe('q4');
  });

  it("makes the file's current_leaf_id the leaf, whatever message is newest", () => {
    const db = openTestDatabase();
    const conversationId = importTranscript(db, file([user('q1'), user('q2', { parent_id: 'q1' }), user('q3', { parent_id: 'q1' })], { current_leaf_id: 'q2' }));
    expect(listLiveMessages(db, conversationId).map((row) => row.text)).toEqual(['q1', 'q2']);
  });

  it('refuses a parent_id that names no message before it or names a summary, a summary with a parent, and a leaf not in the file', () => {
    const db = openTestDatabase();
    const summary = { id: 's', turn_id: 's', role: 'system', kind: 'summary', text: 's' };
    const refusals: [string, string][] = [
      [file([user('q1', { parent_id: 'q2' }), user('q2')]), 'messages[0].parent_id: it names no message before this one'],
      [file([user('q1'), user('q2', { parent_id: 'elsewhere' })]), 'messages[1].parent_id: it names no message before this one'],
      [file([user('q1'), summary, user('q2', { parent_id: 's' })]), 'messages[2].parent_id: it names a summary, and no message follows a summary'],
      [file([user('q1'), { ...summary, parent_id: 'q1' }]), 'messages[1].parent_id: a summary follows no message'],
      [file([user('q1')], { current_leaf_id: 'q9' }), 'conversation.current_leaf_id: it names no message of this conversation'],
      [file([user('q1'), summary], { current_leaf_id: 's' }), 'conversation.current_leaf_id: it names a summary, and the leaf is a message'],
    ];
    for (const [text, problem] of refusals) {
      expect(() => importTranscript(db, text)).toThrow(`The file is not a valid Anybrain transcript: ${problem}. Nothing was imported.`);
    }
    expect(listConversations(db)).toEqual([]);
  });
});
