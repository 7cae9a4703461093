/**
 * Every command of the Api under each way the store refuses: another process holding the write lock past the time a
 * write is tried for, and a disk that takes no new page. The list is typed over the command table, so a new command
 * does not build until it is named here as one that writes or one that leaves the store. A write answers ok only with
 * its change on the disk (read by a second connection), or an error a person can act on with nothing changed; a read
 * answers as it would without the fault; no throw reaches the event loop, and once the fault is gone the same core
 * writes again.
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

/** Answers every request at once; a message holding `[fail]` gets a provider error, so its reply ends failed. */
async function* briefBrain(call: ProviderCall): AsyncIterable<StreamPart> {
  if (JSON.stringify(call.body).includes('[fail]')) {
    yield { type: 'error', error: { code: 'provider-error', message: 'The provider failed.', retryable: true } };
    return;
  }
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
  /** A conversation with one exchange, its reply regenerated once: two replies to one question. */
  readonly exchange: { readonly conversationId: string; readonly questionId: string; readonly firstReplyId: string; readonly secondReplyId: string };
  /** A conversation whose last reply failed. */
  readonly failedConversationId: string;
  /** An imported conversation long enough for Ollama's window to compact. */
  readonly longConversationId: string;
  readonly mcpServerId: string;
}

/** Long enough that a write of it needs a new page. */
const LONG = 'A line that fills the page. '.repeat(140).slice(0, 4000);

/** A transcript with `messages` exchanges of about 500 tokens each and, where asked, replies with escaped quotes. */
function transcript(id: string, exchanges: number, escapedQuotes = false): string {
  const messages = Array.from({ length: exchanges }, (_, index) => [
    { id: `${id}-u${index}`, turn_id: `${id}-t${index}`, role: 'user', kind: 'chat', text: `Question ${index}: ${LONG.slice(0, 2000)}` },
    { id: `${id}-a${index}`, turn_id: `${id}-t${index}`, role: 'assistant', kind: 'chat', status: 'complete', text: escapedQuotes ? `She said \\"yes\\" ${index}.` : `Answer ${index}.` },
  ]).flat();
  return JSON.stringify({ format: 'anybrain.transcript', version: 1, conversation: { id, title: id, created_at: '2026-01-01T00:00:00.000Z' }, messages });
}

async function seed(core: OpenedCore): Promise<Seeded> {
  const conversation = await value<{ id: string }>(core, 'createConversation', { title: 'Faults', brain: 'claude' });
  const other = await value<{ id: string }>(core, 'createConversation', { title: 'Other', brain: 'claude' });
  const memory = await value<{ id: string }>(core, 'addMemory', { text: 'likes tea' });
  const attachment = await value<{ id: string }>(core, 'addAttachment', { name: 'dot.png', dataBase64: pngFile(2, 2).toString('base64') });
  const exchangeConversation = await value<{ id: string }>(core, 'createConversation', { title: 'Exchange', brain: 'kimi' });
  const asked = await value<{ userMessageId: string; assistantMessageId: string }>(core, 'send', { conversationId: exchangeConversation.id, text: 'Hello' });
  await core.engine.settled(exchangeConversation.id);
  const again = await value<{ assistantMessageId: string }>(core, 'regenerate', { messageId: asked.assistantMessageId });
  await core.engine.settled(exchangeConversation.id);
  const failing = await value<{ id: string }>(core, 'createConversation', { title: 'Failing', brain: 'kimi' });
  await value(core, 'send', { conversationId: failing.id, text: 'Please [fail]' });
  await core.engine.settled(failing.id);
  const long = await value<{ id: string }>(core, 'importTranscript', { content: transcript('long', 12) });
  // One repair applied, so there is a repair to undo, and one reply left to repair.
  await value(core, 'importTranscript', { content: transcript('legacy-undo', 1, true) });
  await value(core, 'repairTexts', { kind: 'quote-escapes', apply: true });
  const legacy = await value<{ id: string }>(core, 'importTranscript', { content: transcript('legacy', 1, true) });
  // A live path whose marks disagree with the walk from its leaf (as a crash between two writes left some).
  core.db.$client.prepare("UPDATE messages SET on_live_path = 0 WHERE conversation_id = ? AND role = 'user'").run(legacy.id);
  const [server] = await value<{ id: string }[]>(core, 'saveMcpServer', { label: 'Idle', command: process.execPath, args: ['--version'], env: {}, enabled: false });
  return {
    conversationId: conversation.id,
    otherConversationId: other.id,
    memoryId: memory.id,
    attachmentId: attachment.id,
    exchange: { conversationId: exchangeConversation.id, questionId: asked.userMessageId, firstReplyId: asked.assistantMessageId, secondReplyId: again.assistantMessageId },
    failedConversationId: failing.id,
    longConversationId: long.id,
    mcpServerId: server!.id,
  };
}

/**
 * What each command of the Api does with the store, and an input that makes it do so: `writes` changes what is stored,
 * `leaves` reads it or acts elsewhere (the keychain, a provider, a worker's files, what is in memory). Typed over every
 * command name, so a new command does not build until it is named here, and a command said to leave the store that
 * writes is caught: it is refused under the fault like every write.
 */
type Probe = { readonly writes: (seeded: Seeded) => unknown } | { readonly leaves: (seeded: Seeded) => unknown };

const PROBES: { readonly [Name in CommandName]: Probe } = {
  listConversations: { leaves: () => ({}) },
  createConversation: { writes: () => ({ title: LONG.slice(0, 500), brain: 'gemini' }) },
  renameConversation: { writes: (seeded) => ({ id: seeded.conversationId, title: LONG.slice(0, 500) }) },
  deleteConversation: { writes: (seeded) => ({ id: seeded.otherConversationId }) },
  getConversation: { leaves: (seeded) => ({ id: seeded.conversationId }) },
  setConversationBrain: { writes: (seeded) => ({ id: seeded.conversationId, brain: 'kimi' }) },
  listMessages: { leaves: (seeded) => ({ conversationId: seeded.exchange.conversationId }) },
  send: { writes: (seeded) => ({ conversationId: seeded.conversationId, text: LONG }) },
  addAttachment: { writes: () => ({ name: 'other.png', dataBase64: pngFile(3, 3).toString('base64') }) },
  removeAttachment: { writes: (seeded) => ({ id: seeded.attachmentId }) },
  readAttachment: { leaves: (seeded) => ({ id: seeded.attachmentId }) },
  retry: { writes: (seeded) => ({ conversationId: seeded.failedConversationId }) },
  stop: { leaves: (seeded) => ({ conversationId: seeded.conversationId }) },
  editMessage: { writes: (seeded) => ({ messageId: seeded.exchange.questionId, text: LONG }) },
  regenerate: { writes: (seeded) => ({ messageId: seeded.exchange.secondReplyId }) },
  answerWith: { writes: (seeded) => ({ messageId: seeded.exchange.secondReplyId, brain: 'claude' }) },
  chooseSibling: { writes: (seeded) => ({ messageId: seeded.exchange.firstReplyId }) },
  getSettings: { leaves: () => ({}) },
  setDefaultBrain: { writes: () => ({ brain: 'grok' }) },
  setTheme: { writes: () => ({ theme: 'dark' }) },
  setBaseUrl: { writes: () => ({ brain: 'kimi', baseUrl: 'https://api.moonshot.cn/v1' }) },
  confirmKeyHost: { writes: () => ({ brain: 'grok' }) },
  // Models list over the network, refused here before anything is sent: no key for Grok.
  testBrain: { leaves: () => ({ brain: 'grok' }) },
  // Keys live in the keychain or the environment, never in the database.
  setKey: { leaves: () => ({ brain: 'glm', key: 'sk-never-stored' }) },
  exportConversation: { leaves: (seeded) => ({ id: seeded.exchange.conversationId, format: 'md' }) },
  exportAllConversations: { leaves: () => ({ exportId: 'export-under-faults', format: 'json' }) },
  cancelExport: { leaves: () => ({ exportId: 'export-under-faults' }) },
  readExport: { leaves: () => ({ exportId: 'export-under-faults', offset: 0 }) },
  listMemories: { leaves: () => ({}) },
  addMemory: { writes: () => ({ text: LONG }) },
  updateMemory: { writes: (seeded) => ({ id: seeded.memoryId, text: LONG.slice(1) }) },
  deleteMemory: { writes: (seeded) => ({ id: seeded.memoryId }) },
  listSkills: { leaves: () => ({}) },
  listTools: { leaves: () => ({}) },
  setToolPolicy: { writes: () => ({ server: null, tool: 'current_time', policy: 'ask' }) },
  listMcpServers: { leaves: () => ({}) },
  saveMcpServer: { writes: () => ({ label: LONG.slice(0, 60), command: process.execPath, args: ['--version'], env: {}, enabled: false }) },
  setMcpServerEnabled: { writes: (seeded) => ({ id: seeded.mcpServerId, enabled: true }) },
  removeMcpServer: { writes: (seeded) => ({ id: seeded.mcpServerId }) },
  getGrantedFolders: { leaves: () => ({}) },
  setGrantedFolders: { writes: () => ({ folders: [tmpdir()] }) },
  listApprovals: { leaves: () => ({}) },
  // Approvals wait in memory; an id no approval has is answered as such.
  answerApproval: { leaves: () => ({ approvalId: '01JZ0000000000000000000000', decision: 'allow' }) },
  importTranscript: { writes: () => ({ content: transcript('imported', 2) }) },
  importConversations: { writes: () => ({ name: 'chat.json', content: transcript('imported-2', 2) }) },
  previewRequest: { leaves: (seeded) => ({ conversationId: seeded.exchange.conversationId }) },
  getContextStatus: { leaves: (seeded) => ({ conversationId: seeded.exchange.conversationId }) },
  compactConversation: { writes: (seeded) => ({ conversationId: seeded.longConversationId, brain: 'ollama' }) },
  previewCompaction: { leaves: (seeded) => ({ conversationId: seeded.longConversationId, brain: 'ollama' }) },
  getUsage: { leaves: () => ({}) },
  getModelPrices: { leaves: () => ({}) },
  setModelPrice: { writes: () => ({ brain: 'kimi', model: 'kimi-k2.6', price: { inputPerMillion: 1, outputPerMillion: 4, cacheReadPerMillion: 0.2, cacheWritePerMillion: null } }) },
  listCoveredMessages: { leaves: () => ({ summaryId: '01JZ0000000000000000000000' }) },
  setModelWindow: { writes: () => ({ brain: 'kimi', model: 'kimi-k2.6', contextWindow: 100_000, outputLimit: null }) },
  setCompactionBrain: { writes: () => ({ brain: 'gemini' }) },
  setContextLines: { writes: () => ({ brain: 'kimi', warningPercent: 40, emergencyPercent: 70 }) },
  getDataHealth: { leaves: () => ({}) },
  listNotAnswering: { leaves: () => ({}) },
  repairTexts: { writes: () => ({ kind: 'quote-escapes', apply: true }) },
  undoRepair: { writes: () => ({}) },
  repairLivePaths: { writes: () => ({ apply: true }) },
  searchMessages: { leaves: () => ({ query: 'Question' }) },
};

const probes = Object.entries(PROBES) as [CommandName, Probe][];

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
  it('answers ok only with its change on the disk, or the refusal with nothing changed; reads and what leaves the store answer as before', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-every-write-'));
    // Tried again for 100 ms instead of 5 s, so the test does not wait it out for every command.
    const core = openCore({ dataDir, env: { ANTHROPIC_API_KEY: 'k', MOONSHOT_API_KEY: 'k' }, stream: briefBrain, exportArchives: 'in-process', busyBudgetMs: 100 });
    const reader = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => core.dispose(), () => void reader.close());
    const seeded = await seed(core);
    const lift = apply(core, dataDir);
    const refused: string[] = [];
    const writes: string[] = [];
    for (const [name, probe] of probes) {
      const before = everyRow(reader);
      const input = 'writes' in probe ? probe.writes(seeded) : probe.leaves(seeded);
      const result = await core.dispatch(name, input);
      const conversationId = (input as { conversationId?: string }).conversationId ?? seeded.exchange.conversationId;
      if (result.ok) await core.engine.settled(conversationId);
      if ('leaves' in probe) {
        expect(result.ok ? 'ok' : result.error.code, `${name} leaves the store: ${result.ok ? '' : result.error.message}`).not.toMatch(/^(storage-busy|disk-full|storage-unavailable)$/);
        expect(everyRow(reader), `${name} leaves the store`).toBe(before);
        continue;
      }
      writes.push(name);
      if (result.ok) {
        expect(everyRow(reader), `${name} answered ok`).not.toBe(before);
      } else {
        expect(result.error.code, `${name}: ${result.error.message}`).toBe(refusal);
        expect(everyRow(reader), `${name} was refused`).toBe(before);
        refused.push(name);
      }
    }
    expect(writes).toEqual(probes.filter(([, probe]) => 'writes' in probe).map(([name]) => name));
    if (refusal === 'storage-busy') expect(refused).toEqual(writes);
    else expect(refused).toEqual(expect.arrayContaining(['addMemory', 'importTranscript', 'importConversations', 'send']));
    lift();
    expect((await core.dispatch('createConversation', { title: 'After' })).ok).toBe(true);
  });
});
