/**
 * Kill soak: the built command line and web host, killed with SIGKILL at random moments of a reply streaming, a tool
 * call, an import, an export and a compaction, against the fake brains. After every kill the next start must find the
 * data whole: `PRAGMA integrity_check` is `ok`, every row committed before the kill is still there, a reply keeps all
 * but at most one checkpoint interval (250 ms) of the text that was shown, no row stays `streaming`, an import is all or
 * nothing, and an export file is whole. A killed web host stays an unreaped zombie while the next start runs.
 *
 * A compaction (`anybrain compact --brain ollama` on a freshly imported conversation that Ollama's 4,096-token window,
 * set as a user sets it, reads in three parts) is killed, in turn, before its first summary request, while a part's summary streams, between
 * two parts, or in the few milliseconds between the last summary's end and the summary being printed, where its one
 * transaction commits; the delays are timed on an unkilled run. Afterwards the conversation is exactly as before (every
 * message, tool call and brain state row byte for byte, no summary) or compacted whole (one live summary, the oldest
 * rows folded into it through its `covers_through_id`, nothing else changed), and the next `anybrain compact` completes.
 *
 * Rounds take the phases in turn until the kills are done (a run that ends before its kill moment does not count): with
 * `npm test`'s ANYBRAIN_SOAK_KILLS=10 (the default) that is two each of replies, replies with a tool call, imports and
 * exports, then one compaction and one web host reply; `npm run test:soak` runs 100. ANYBRAIN_SOAK_SEED replays the kill
 * moments (process timing still varies). The command line is built from this checkout into out/kill-soak-cli-<pid>
 * first, because the unit stage of `npm test` runs before `npm run build`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAIN_IDS, BRAINS } from '../../src-shared/brains';
import { transcriptSchema } from '../../src-shared/transcript';
import { startFakeBrains, type FakeBrains } from '../../e2e/fake-brains/server';
import { SLOW_CHUNK_COUNT, SLOW_DELAY_MS } from '../../e2e/fake-brains/script';
import { giveOllamaASmallWindow, longTranscript as longConversationTranscript } from '../../e2e/support/long-conversation';
import { DATABASE_FILE } from '../core/app';
import { buildCliInto, cliBuildFolder, seededRandom } from './testing';

const KILLS = Number(process.env.ANYBRAIN_SOAK_KILLS ?? '10');
const SEED = Number(process.env.ANYBRAIN_SOAK_SEED ?? String(Date.now() % 2_147_483_647));
/** The engine checkpoints a streaming reply at least this often (engine/run-turn.ts). */
const CHECKPOINT_INTERVAL_MS = 250;
/** Timers of a busy two-core machine fire late: what may be unstored is one interval plus this. */
const TIMER_MARGIN_MS = 250;
/** The fake brain streams `[slow]` replies one word every SLOW_DELAY_MS: the most words shown but not stored. */
const MOST_UNSTORED_WORDS = Math.ceil((CHECKPOINT_INTERVAL_MS + TIMER_MARGIN_MS) / SLOW_DELAY_MS);
const IMPORTED_MESSAGES = 1_500;
/**
 * The compacted conversation: Ollama's default model is given a 4,096-token window in the settings (its fake was trained
 * for 40,960), and 80 messages of about 100 tokens are summarised in three parts, one request each (as in e2e/compaction-kill.spec.ts).
 */
const COMPACTION_EXCHANGES = 40;
const COMPACTION_MESSAGE_TOKENS = 100;
/** The path every Ollama chat request, a summary request among them, reaches the fake on. */
const OLLAMA_CHAT_PATH = '/ollama/api/chat';

const builtCliFolder = cliBuildFolder('kill-soak-cli');
const builtCli = join(builtCliFolder, 'anybrain.js');

type Scenario = 'chat' | 'chat-tool' | 'import' | 'export' | 'serve' | 'compact';
const SCENARIOS: readonly Scenario[] = ['chat', 'chat-tool', 'import', 'export', 'compact', 'serve'];
/** Where a compaction's kill is aimed, in turn; the phase counted is where it was seen to land. */
type CompactionMoment = 'before the first request' | 'a part streaming' | 'between parts' | 'the final transaction';
const COMPACTION_MOMENTS: readonly CompactionMoment[] = ['before the first request', 'a part streaming', 'between parts', 'the final transaction'];
/**
 * How long after the start a reply's kill may fall: across start-up, the tool call and most of the reply (a `[slow]`
 * reply streams for SLOW_CHUNK_COUNT × SLOW_DELAY_MS). An import's or export's window is as long as an unkilled run took.
 */
const REPLY_KILL_WINDOW_MS: Readonly<Record<'chat' | 'chat-tool' | 'serve', number>> = { chat: 3_000, 'chat-tool': 1_600, serve: 3_000 };

interface MessageSnapshot {
  readonly id: string;
  readonly status: string;
  readonly text: string;
  readonly streamOwner: string | null;
}

/** What was committed at one moment, read through a separate read-only connection. */
interface Snapshot {
  readonly conversations: ReadonlySet<string>;
  readonly messages: ReadonlyMap<string, MessageSnapshot>;
  readonly invocations: ReadonlySet<string>;
}

/** A command line process the soak started, and how it ends it. */
interface Started {
  readonly pid: number;
  stdout(): string;
  stderr(): string;
  /** Settles once the process is gone and everything it wrote has been read. */
  readonly exited: Promise<number | null>;
  hasExited(): boolean;
  kill(): Promise<void>;
}

/** The one-letter state in /proc/<pid>/stat (`Z` for a zombie), or null where there is no /proc. */
function processState(pid: number): string | null {
  const statPath = `/proc/${pid}/stat`;
  if (!existsSync(statPath)) return null;
  const stat = readFileSync(statPath, 'utf8');
  // The command name in parentheses may hold spaces: the state follows the last `)`.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
}

/**
 * Whether a killed process is wholly dead but unreaped. Its main thread shows `Z` while its other threads may still be
 * exiting, and the last of them closes its files (and so its owner lock): wait until only the zombie main thread is left.
 */
function isUnreapedZombie(pid: number): boolean {
  return processState(pid) === 'Z' && readdirSync(`/proc/${pid}/task`).length === 1;
}

interface Figures {
  kills: number;
  /** Killed web hosts that were still unreaped zombies (seen in /proc) when the next start recovered their replies. */
  unreapedZombies: number;
  killsByPhase: Record<string, number>;
  finishedBeforeKill: number;
  rowsChecked: number;
  repliesCompared: number;
  mostUnstoredWords: number;
  /** Killed compactions that left their conversation exactly as it was. */
  compactionsAsBefore: number;
  /** Killed compactions whose summary had committed, whole, before the kill. */
  compactionsWhole: number;
  /** Compactions run to the end after a kill, that completed (compacted, or had nothing left to compact). */
  compactionsCompletedAfter: number;
  losses: string[];
}

/** Every column of every row a compaction may write, for one conversation, oldest first. */
interface ConversationDump {
  readonly messages: ReadonlyArray<Record<string, unknown>>;
  readonly invocations: ReadonlyArray<Record<string, unknown>>;
  readonly brainState: ReadonlyArray<Record<string, unknown>>;
}

/** How long the parts of an unkilled compaction took, as the fake saw them: where the kill moments are aimed. */
interface CompactionTimings {
  /** From the start to the first summary request. */
  readonly firstRequestMs: number;
  /** Summary requests, one for each part of the span. */
  readonly parts: number;
  /** For each part, from its request to the end of its summary. */
  readonly streamMs: readonly number[];
  /** For each part but the last, from the end of its summary to the next part's request. */
  readonly gapMs: readonly number[];
  /** From the end of the last summary until the stored summary was printed: the final transaction lies within. */
  readonly commitMs: number;
}

interface TrafficCount {
  readonly requested: number;
  readonly finished: number;
}

/** The summary requests of one compaction run reaching the fake and its replies ending, timed as they happen. */
interface SummaryTraffic {
  readonly requestedAt: number[];
  readonly finishedAt: number[];
  /** Resolves once `condition` holds, checked after every request and reply end. */
  until(condition: () => boolean): Promise<void>;
  stop(): void;
}

/**
 * Watches the in-process fake's HTTP server through Node's http diagnostics channels, which report a request as it
 * starts and a response once it has been handed to the socket, without changing the fake. The soak runs one process at
 * a time, so every Ollama chat request seen is a summary request of the compaction under test.
 */
function watchSummaryTraffic(): SummaryTraffic {
  const requestedAt: number[] = [];
  const finishedAt: number[] = [];
  const waiting = new Set<{ condition: () => boolean; resolve: () => void }>();
  const check = () => {
    for (const waiter of waiting) {
      if (waiter.condition()) {
        waiting.delete(waiter);
        waiter.resolve();
      }
    }
  };
  const isSummaryRequest = (message: unknown) => (message as { request?: { url?: string } }).request?.url === OLLAMA_CHAT_PATH;
  const onRequest = (message: unknown) => {
    if (!isSummaryRequest(message)) return;
    requestedAt.push(Date.now());
    check();
  };
  const onFinish = (message: unknown) => {
    if (!isSummaryRequest(message)) return;
    finishedAt.push(Date.now());
    check();
  };
  subscribe('http.server.request.start', onRequest);
  subscribe('http.server.response.finish', onFinish);
  return {
    requestedAt,
    finishedAt,
    until: (condition) =>
      new Promise<void>((resolvePromise) => {
        if (condition()) resolvePromise();
        else waiting.add({ condition, resolve: resolvePromise });
      }),
    stop: () => {
      unsubscribe('http.server.request.start', onRequest);
      unsubscribe('http.server.response.finish', onFinish);
    },
  };
}

/** How the compacted conversation stands against its dump from before the compaction: as before, compacted whole, or broken. */
type CompactionOutcome = { readonly kind: 'as before' } | { readonly kind: 'compacted'; readonly covered: number } | { readonly kind: 'broken'; readonly problem: string };

const sameRows = (left: ReadonlyArray<Record<string, unknown>>, right: ReadonlyArray<Record<string, unknown>>) => JSON.stringify(left) === JSON.stringify(right);

/** A row with the two columns the fold writes (`compacted_into`, `updated_at`) left out. */
function withoutFold(row: Record<string, unknown>): Record<string, unknown> {
  const { compacted_into: _compactedInto, updated_at: _updatedAt, ...rest } = row;
  return rest;
}

/**
 * Either nothing changed, byte for byte, or one summary was stored whole: it is live, it is the newest row, the rows it
 * covers are the oldest ones, contiguous, each unchanged but for `compacted_into` (set to it) and `updated_at`, its
 * `covers_through_id` is the newest of them, and every row after them is unchanged. `spanRows` is the number of
 * messages the compaction said it was summarising, when it got that far.
 */
export function compactionOutcome(before: ConversationDump, after: ConversationDump, spanRows: number | null): CompactionOutcome {
  const broken = (problem: string): CompactionOutcome => ({ kind: 'broken', problem });
  if (!sameRows(before.invocations, after.invocations)) return broken('tool invocation rows changed');
  const summaries = after.messages.filter((row) => row.kind === 'summary');
  if (summaries.length === 0) {
    if (!sameRows(before.messages, after.messages)) return broken('message rows changed but no summary was stored');
    if (!sameRows(before.brainState, after.brainState)) return broken('brain state changed but no summary was stored');
    return { kind: 'as before' };
  }
  if (summaries.length > 1) return broken(`${summaries.length} summary rows`);
  const summary = summaries[0]!;
  const rows = after.messages.filter((row) => row !== summary);
  if (after.messages[after.messages.length - 1] !== summary) return broken('the summary is not the newest row');
  if (summary.compacted_into !== null) return broken('the summary is itself folded');
  if (summary.role !== 'system' || summary.status !== 'complete') return broken(`the summary is a ${String(summary.role)} row, ${String(summary.status)}`);
  if (rows.length !== before.messages.length) return broken(`${before.messages.length} rows before, ${rows.length} besides the summary after`);
  const covered = rows.filter((row) => row.compacted_into === summary.id).length;
  if (covered === 0) return broken('the summary covers no row');
  for (const [index, row] of rows.entries()) {
    const earlier = before.messages[index]!;
    if (index < covered) {
      if (row.compacted_into !== summary.id) return broken(`row ${String(earlier.id)} (${index + 1} of ${rows.length}) is inside the covered rows but not folded`);
      if (!sameRows([withoutFold(earlier)], [withoutFold(row)])) return broken(`covered row ${String(earlier.id)} changed`);
    } else if (!sameRows([earlier], [row])) {
      return broken(`live row ${String(earlier.id)} after the covered rows changed`);
    }
  }
  const newestCovered = rows[covered - 1]!;
  if (summary.covers_through_id !== newestCovered.id) {
    return broken(`covers_through_id is ${String(summary.covers_through_id)}, the newest covered row is ${String(newestCovered.id)}`);
  }
  if (spanRows !== null && covered !== spanRows) return broken(`${covered} rows covered, the compaction said ${spanRows}`);
  const unflagged = before.brainState.map((row) => ({ ...withoutFold(row), full: 0 }));
  if (!sameRows(unflagged, after.brainState.map(withoutFold))) return broken('brain state changed other than its full flags clearing');
  return { kind: 'compacted', covered };
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolvePromise) => setTimeout(resolvePromise, milliseconds));
}

/** The printed launch URL carries the token as `?token=` or, kept out of server logs and Referer, as `#token=`. */
export function tokenFromLaunchUrl(launchUrl: string): string | null {
  const url = new URL(launchUrl);
  return url.searchParams.get('token') ?? new URLSearchParams(url.hash.replace(/^#/, '')).get('token');
}

describe('tokenFromLaunchUrl', () => {
  it('reads the token from the query or from the fragment', () => {
    expect(tokenFromLaunchUrl('http://127.0.0.1:4173/?token=abc_-1')).toBe('abc_-1');
    expect(tokenFromLaunchUrl('http://127.0.0.1:4173/#token=abc_-1')).toBe('abc_-1');
    expect(tokenFromLaunchUrl('http://127.0.0.1:4173/')).toBeNull();
  });
});

describe('compactionOutcome', () => {
  const row = (id: string, seq: number, fields: Record<string, unknown> = {}) => ({
    id,
    seq,
    kind: 'chat',
    role: seq % 2 === 0 ? 'user' : 'assistant',
    text: `text ${id}`,
    status: 'complete',
    compacted_into: null,
    covers_through_id: null,
    updated_at: 'then',
    ...fields,
  });
  const before = { messages: [row('a', 0), row('b', 1), row('c', 2), row('d', 3)], invocations: [{ id: 'call0', message_id: 'b', output: '18:00' }], brainState: [] };
  const summary = row('s', 4, { kind: 'summary', role: 'system', text: 'Summary', covers_through_id: 'b', updated_at: 'now' });
  const folded = (id: string, seq: number) => row(id, seq, { compacted_into: 's', updated_at: 'now' });
  const whole = { ...before, messages: [folded('a', 0), folded('b', 1), row('c', 2), row('d', 3), summary] };

  it('tells an untouched conversation from a whole compaction', () => {
    expect(compactionOutcome(before, structuredClone(before), null)).toEqual({ kind: 'as before' });
    expect(compactionOutcome(before, whole, 2)).toEqual({ kind: 'compacted', covered: 2 });
    expect(compactionOutcome(before, whole, null)).toEqual({ kind: 'compacted', covered: 2 });
  });

  it('names what is half done', () => {
    expect(compactionOutcome(before, { ...before, messages: [folded('a', 0), ...before.messages.slice(1)] }, null)).toEqual({
      kind: 'broken',
      problem: 'message rows changed but no summary was stored',
    });
    expect(compactionOutcome(before, { ...whole, messages: [folded('a', 0), row('b', 1), row('c', 2), row('d', 3), summary] }, null)).toEqual({
      kind: 'broken',
      problem: 'covers_through_id is b, the newest covered row is a',
    });
    expect(compactionOutcome(before, { ...whole, messages: [folded('a', 0), row('b', 1), folded('c', 2), row('d', 3), summary] }, null)).toEqual({
      kind: 'broken',
      problem: 'row b (2 of 4) is inside the covered rows but not folded',
    });
    expect(compactionOutcome(before, { ...whole, messages: [folded('a', 0), folded('b', 1), row('c', 2), summary] }, null)).toEqual({
      kind: 'broken',
      problem: '4 rows before, 3 besides the summary after',
    });
    expect(compactionOutcome(before, { ...whole, messages: [folded('a', 0), folded('b', 1), row('c', 2, { text: 'changed' }), row('d', 3), summary] }, null)).toEqual({
      kind: 'broken',
      problem: 'live row c after the covered rows changed',
    });
    expect(compactionOutcome(before, { ...whole, messages: [folded('a', 0), row('b', 1, { compacted_into: 's', text: 'changed' }), row('c', 2), row('d', 3), summary] }, null)).toEqual({
      kind: 'broken',
      problem: 'covered row b changed',
    });
    expect(compactionOutcome(before, { ...whole, invocations: [] }, null)).toEqual({ kind: 'broken', problem: 'tool invocation rows changed' });
    expect(compactionOutcome(before, whole, 3)).toEqual({ kind: 'broken', problem: '2 rows covered, the compaction said 3' });
    expect(compactionOutcome(before, { ...whole, messages: [...whole.messages.slice(0, 4), { ...summary, compacted_into: 'x' }] }, null)).toEqual({
      kind: 'broken',
      problem: 'the summary is itself folded',
    });
  });
});

describe(`kill soak (${KILLS} kills, seed ${SEED})`, () => {
  let fakeBrains: FakeBrains;
  let dataDir: string;
  let databasePath: string;
  let environment: NodeJS.ProcessEnv;
  let importFile: string;
  let exportFile: string;
  let exportedConversation: string;
  let importedConversations = 0;
  let importTookMs = 0;
  let exportTookMs = 0;
  let compactionFile: string;
  let compactionTimings: CompactionTimings;
  let compactionRounds = 0;
  const random = seededRandom(SEED);
  /** The seed picks the first compaction's moment, so that short runs do not all aim at the same one. */
  const firstCompactionMoment = SEED % COMPACTION_MOMENTS.length;
  const children = new Set<ChildProcess>();

  beforeAll(async () => {
    buildCliInto(builtCliFolder);
    fakeBrains = await startFakeBrains({ openAiSpecPath: null });
    dataDir = mkdtempSync(join(tmpdir(), 'anybrain-kill-soak-'));
    databasePath = join(dataDir, DATABASE_FILE);
    environment = { ...process.env, ANYBRAIN_DATA_DIR: dataDir };
    for (const brain of BRAIN_IDS) environment[BRAINS[brain].baseUrlVariable] = fakeBrains.baseUrlFor(brain);
    importFile = join(dataDir, 'long-transcript.json');
    writeFileSync(importFile, JSON.stringify(longTranscript()));
    exportFile = join(dataDir, 'export.json');
    compactionFile = join(dataDir, 'compaction-transcript.json');
    writeFileSync(compactionFile, longConversationTranscript({ title: 'Soak compaction', exchanges: COMPACTION_EXCHANGES, messageTokens: COMPACTION_MESSAGE_TOKENS }));
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await fakeBrains?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    rmSync(builtCliFolder, { recursive: true, force: true });
  });

  function longTranscript(): unknown {
    const messages = Array.from({ length: IMPORTED_MESSAGES }, (_, index) => ({
      id: `imported-${index}`,
      turn_id: `turn-${Math.floor(index / 2)}`,
      role: index % 2 === 0 ? 'user' : 'assistant',
      kind: 'chat',
      text: `Imported message ${index}: ${'the tide comes in and the tide goes out. '.repeat(8)}`,
      created_at: '2026-01-01T00:00:00.000Z',
      ...(index % 2 === 1 ? { status: 'complete', brain: 'claude', model_requested: 'claude-sonnet-4-6', model_responded: 'claude-sonnet-4-6' } : {}),
    }));
    return {
      format: 'anybrain.transcript',
      version: 1,
      conversation: { id: 'soak-import', title: 'Soak import', created_at: '2026-01-01T00:00:00.000Z' },
      messages,
    };
  }

  function start(args: readonly string[]): Started {
    const child = spawn(process.execPath, [builtCli, ...args], { env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // 'close' waits for the pipes to drain: everything the process wrote before it died has been read.
    const exited = new Promise<number | null>((resolvePromise) => child.once('close', (code) => {
      children.delete(child);
      resolvePromise(code);
    }));
    return {
      pid: child.pid ?? -1,
      stdout: () => stdout,
      stderr: () => stderr,
      exited,
      hasExited: () => child.exitCode !== null || child.signalCode !== null,
      kill: async () => {
        child.kill('SIGKILL');
        await exited;
      },
    };
  }

  /**
   * Starts the command under a shell that then becomes `sleep`, which never waits for it: once killed, the process
   * stays an unreaped zombie while the next start runs (Node reaps the children it spawns itself at once).
   */
  async function startUnreaped(args: readonly string[], figures: Figures): Promise<Started & { release(): void }> {
    const wrapper = spawn('sh', ['-c', '"$0" "$@" & echo "unreaped-pid $!"; exec sleep 600', process.execPath, builtCli, ...args], {
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(wrapper);
    let stdout = '';
    let stderr = '';
    wrapper.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    wrapper.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const pidLine = /unreaped-pid (\d+)\n/;
    while (!pidLine.test(stdout)) await sleep(10);
    const pid = Number(pidLine.exec(stdout)?.[1]);
    let resolveExited: (code: number | null) => void = () => undefined;
    const exited = new Promise<number | null>((resolvePromise) => (resolveExited = resolvePromise));
    return {
      pid,
      stdout: () => stdout.replace(pidLine, ''),
      stderr: () => stderr,
      exited,
      hasExited: () => isUnreapedZombie(pid),
      kill: async () => {
        process.kill(pid, 'SIGKILL');
        if (processState(pid) === null) {
          await sleep(200);
        } else {
          const deadline = Date.now() + 5_000;
          while (!isUnreapedZombie(pid) && Date.now() < deadline) await sleep(10);
          if (isUnreapedZombie(pid)) figures.unreapedZombies += 1;
        }
        resolveExited(null);
      },
      release: () => {
        wrapper.kill('SIGKILL');
        children.delete(wrapper);
      },
    };
  }

  async function runToEnd(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const started = start(args);
    const code = await started.exited;
    return { code, stdout: started.stdout(), stderr: started.stderr() };
  }

  function snapshot(): Snapshot {
    const reader = new Database(databasePath, { readonly: true, fileMustExist: true });
    try {
      const conversations = new Set(reader.prepare('SELECT id FROM conversations').pluck().all() as string[]);
      const rows = reader.prepare('SELECT id, status, text, stream_owner AS streamOwner FROM messages').all() as MessageSnapshot[];
      const invocations = new Set(reader.prepare('SELECT id FROM tool_invocations').pluck().all() as string[]);
      return { conversations, messages: new Map(rows.map((row) => [row.id, row])), invocations };
    } finally {
      reader.close();
    }
  }

  /** Kills at `killAtMs` after the start, taking the committed rows just before; null when it finished first. */
  async function killAt(
    started: Started,
    killAtMs: number,
    startedAt: number,
    shownNow: () => string = started.stdout,
  ): Promise<{ before: Snapshot; stderrAtKill: string; shownAtKill: string } | null> {
    const exitedFirst = await Promise.race([started.exited.then(() => true), sleep(Math.max(0, startedAt + killAtMs - Date.now())).then(() => false)]);
    if (exitedFirst || started.hasExited()) return null;
    const before = snapshot();
    const stderrAtKill = started.stderr();
    const shownAtKill = shownNow();
    await started.kill();
    return { before, stderrAtKill, shownAtKill };
  }

  /** The next start (`anybrain list`) and the checks every kill must pass. */
  async function checkAfterKill(figures: Figures, label: string, before: Snapshot): Promise<Database.Database> {
    const next = await runToEnd(['list', '--json']);
    if (next.code !== 0) figures.losses.push(`${label}: the next start failed: ${next.stderr}`);
    const after = new Database(databasePath);
    const integrity = after.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') figures.losses.push(`${label}: integrity_check says ${String(integrity)}`);
    const streaming = after.prepare("SELECT count(*) FROM messages WHERE status = 'streaming'").pluck().get() as number;
    if (streaming !== 0) figures.losses.push(`${label}: ${streaming} rows still streaming after the next start`);
    const conversations = new Set(after.prepare('SELECT id FROM conversations').pluck().all() as string[]);
    const invocations = new Set(after.prepare('SELECT id FROM tool_invocations').pluck().all() as string[]);
    const rowOf = after.prepare('SELECT status, text FROM messages WHERE id = ?');
    for (const id of before.conversations) if (!conversations.has(id)) figures.losses.push(`${label}: conversation ${id} lost`);
    for (const id of before.invocations) if (!invocations.has(id)) figures.losses.push(`${label}: tool invocation ${id} lost`);
    for (const row of before.messages.values()) {
      const now = rowOf.get(row.id) as { status: string; text: string } | undefined;
      if (now === undefined) figures.losses.push(`${label}: message ${row.id} lost`);
      else if (row.status === 'streaming' ? !now.text.startsWith(row.text) : now.text !== row.text || now.status !== row.status) {
        figures.losses.push(`${label}: message ${row.id} changed from ${row.status} ${JSON.stringify(row.text)} to ${now.status} ${JSON.stringify(now.text)}`);
      }
    }
    figures.rowsChecked += before.conversations.size + before.messages.size + before.invocations.size;
    return after;
  }

  /** The stored reply must be what was shown, less at most one checkpoint interval of words. */
  function compareShownWithStored(figures: Figures, label: string, shown: string, stored: string | null): void {
    const shownText = shown.replace(/\n$/, '');
    figures.repliesCompared += 1;
    if (stored === null) {
      if (shownText !== '') figures.losses.push(`${label}: ${JSON.stringify(shownText)} was shown but no reply row exists`);
      return;
    }
    if (!shownText.startsWith(stored) && !stored.startsWith(shownText)) {
      figures.losses.push(`${label}: stored ${JSON.stringify(stored)} is not a prefix of shown ${JSON.stringify(shownText)}`);
      return;
    }
    const unstored = shownText.slice(stored.length);
    const unstoredWords = unstored.trim() === '' ? 0 : unstored.trim().split(/\s+/).length;
    figures.mostUnstoredWords = Math.max(figures.mostUnstoredWords, unstoredWords);
    if (unstoredWords > MOST_UNSTORED_WORDS) {
      figures.losses.push(`${label}: ${unstoredWords} words shown but not stored (${JSON.stringify(unstored)}), more than ${MOST_UNSTORED_WORDS}`);
    }
  }

  /** Where the killed writer was, from the rows it owned when the snapshot was taken. */
  function replyPhase(before: Snapshot, pid: number, withTool: boolean, replyRowExisted: boolean, shownAtKill: string): string {
    const owned = [...before.messages.values()].find((row) => row.status === 'streaming' && row.streamOwner === `${pid}@${hostname()}`);
    if (owned === undefined) return replyRowExisted ? 'after the reply finished' : 'start-up, before the reply row';
    if (owned.text === '' && shownAtKill === '') return withTool ? 'tool call' : 'waiting for the first words';
    return withTool ? 'streaming after a tool call' : 'streaming';
  }

  function assistantText(after: Database.Database, conversationId: string | null): string | null {
    if (conversationId === null) return null;
    const row = after.prepare("SELECT text FROM messages WHERE conversation_id = ? AND role = 'assistant' ORDER BY seq DESC LIMIT 1").get(conversationId) as
      | { text: string }
      | undefined;
    return row?.text ?? null;
  }

  async function chatRound(figures: Figures, round: number, withTool: boolean): Promise<boolean> {
    const prompt = withTool ? `[slow][tool:current_time {"zone":"Asia/Seoul"}] round ${round}: what time is it?` : `[slow] round ${round}: a long story`;
    const startedAt = Date.now();
    const started = start(['chat', '--brain', 'kimi', prompt]);
    const killed = await killAt(started, random() * REPLY_KILL_WINDOW_MS[withTool ? 'chat-tool' : 'chat'], startedAt);
    if (killed === null) return false;
    // The conversation id goes to stderr just before the turn is admitted.
    const phase = `chat: ${replyPhase(killed.before, started.pid, withTool, killed.stderrAtKill !== '', killed.shownAtKill)}`;
    figures.killsByPhase[phase] = (figures.killsByPhase[phase] ?? 0) + 1;
    const label = `kill ${figures.kills + 1} (${phase})`;
    const after = await checkAfterKill(figures, label, killed.before);
    const conversationId = /^([0-9A-Z]{26})\n/.exec(started.stderr())?.[1] ?? null;
    compareShownWithStored(figures, label, started.stdout(), assistantText(after, conversationId));
    after.close();
    return true;
  }

  async function serveRound(figures: Figures, round: number): Promise<boolean> {
    const withTool = round % 2 === 1;
    const started = await startUnreaped(['serve', '--port', '0'], figures);
    try {
      return await driveWebTurn(figures, round, withTool, started);
    } finally {
      // Only now, after the next start has recovered its reply, may the zombie go.
      started.release();
    }
  }

  async function driveWebTurn(figures: Figures, round: number, withTool: boolean, started: Started): Promise<boolean> {
    const deadline = Date.now() + 20_000;
    let launchUrl: string | undefined;
    while (launchUrl === undefined && Date.now() < deadline) {
      launchUrl = /running at (http:\/\/127\.0\.0\.1:\d+\/\S*token=\S+)/.exec(started.stdout())?.[1];
      if (launchUrl === undefined) await sleep(20);
    }
    if (launchUrl === undefined) throw new Error(`anybrain serve printed no address: ${started.stderr()}`);
    const origin = new URL(launchUrl).origin;
    const headers = { authorization: `Bearer ${tokenFromLaunchUrl(launchUrl) ?? ''}`, 'content-type': 'application/json' };
    const command = async <T>(name: string, input: unknown): Promise<T> => {
      const response = await fetch(`${origin}/api/command/${name}`, { method: 'POST', headers, body: JSON.stringify(input) });
      const result = (await response.json()) as { ok: boolean; value: T; error?: { message: string } };
      if (!result.ok) throw new Error(`${name} failed: ${result.error?.message ?? ''}`);
      return result.value;
    };

    const events = new AbortController();
    const eventStream = await fetch(`${origin}/api/events`, { headers, signal: events.signal });
    let assistantId: string | null = null;
    const pendingDeltas: Array<{ messageId: string; textDelta: string }> = [];
    const reading = (async () => {
      const decoder = new TextDecoder();
      let buffered = '';
      try {
        for await (const chunk of eventStream.body as unknown as AsyncIterable<Uint8Array>) {
          buffered += decoder.decode(chunk, { stream: true });
          let boundary: number;
          while ((boundary = buffered.indexOf('\n\n')) >= 0) {
            const frame = buffered.slice(0, boundary);
            buffered = buffered.slice(boundary + 2);
            const data = frame.split('\n').find((line) => line.startsWith('data: '));
            if (data === undefined) continue;
            const event = JSON.parse(data.slice(6)) as { type: string; messageId?: string; textDelta?: string };
            if (event.type === 'message-delta' && event.messageId !== undefined) pendingDeltas.push({ messageId: event.messageId, textDelta: event.textDelta ?? '' });
          }
        }
      } catch {
        // The host was killed or the test stopped listening: what arrived before is what was shown.
      }
    })();

    const conversation = await command<{ id: string }>('createConversation', { brain: 'kimi' });
    const prompt = withTool ? `[slow][tool:current_time {"zone":"UTC"}] web round ${round}` : `[slow] web round ${round}`;
    const startedAt = Date.now();
    const sent = await command<{ assistantMessageId: string }>('send', { conversationId: conversation.id, text: prompt });
    assistantId = sent.assistantMessageId;
    const shownSoFar = () => pendingDeltas.filter((delta) => delta.messageId === assistantId).map((delta) => delta.textDelta).join('');
    const killed = await killAt(started, random() * REPLY_KILL_WINDOW_MS.serve, startedAt, shownSoFar);
    events.abort();
    await reading;
    if (killed === null) return false;
    const shown = shownSoFar();
    const phase = `web host: ${replyPhase(killed.before, started.pid, withTool, true, killed.shownAtKill)}`;
    figures.killsByPhase[phase] = (figures.killsByPhase[phase] ?? 0) + 1;
    const label = `kill ${figures.kills + 1} (${phase})`;
    const after = await checkAfterKill(figures, label, killed.before);
    compareShownWithStored(figures, label, shown, assistantText(after, conversation.id));
    after.close();
    return true;
  }

  async function importRound(figures: Figures): Promise<boolean> {
    const startedAt = Date.now();
    const started = start(['import', importFile]);
    const killed = await killAt(started, random() * importTookMs, startedAt);
    if (killed === null) {
      importedConversations += 1;
      return false;
    }
    const label = `kill ${figures.kills + 1} (import)`;
    const after = await checkAfterKill(figures, label, killed.before);
    const counts = after
      .prepare("SELECT (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id) AS messages FROM conversations c WHERE c.title = 'Soak import'")
      .pluck()
      .all() as number[];
    after.close();
    if (counts.some((count) => count !== IMPORTED_MESSAGES)) figures.losses.push(`${label}: a half-imported conversation: ${counts.join(', ')} messages`);
    const committed = counts.length > importedConversations;
    if (counts.length !== importedConversations && counts.length !== importedConversations + 1) {
      figures.losses.push(`${label}: ${counts.length} imported conversations, expected ${importedConversations} or one more`);
    }
    importedConversations = counts.length;
    const phase = committed ? 'import: after its commit' : 'import: before its commit';
    figures.killsByPhase[phase] = (figures.killsByPhase[phase] ?? 0) + 1;
    return true;
  }

  async function exportRound(figures: Figures): Promise<boolean> {
    const startedAt = Date.now();
    const started = start(['export', '--conversation', exportedConversation, '--format', 'json', '--out', exportFile]);
    const killed = await killAt(started, random() * exportTookMs, startedAt);
    if (killed === null) return false;
    figures.killsByPhase.export = (figures.killsByPhase.export ?? 0) + 1;
    const label = `kill ${figures.kills + 1} (export)`;
    const after = await checkAfterKill(figures, label, killed.before);
    after.close();
    // The previous export stays whole until the new one replaces it whole.
    try {
      const transcript = transcriptSchema.parse(JSON.parse(readFileSync(exportFile, 'utf8')));
      if (transcript.messages.length !== IMPORTED_MESSAGES) figures.losses.push(`${label}: the export file holds ${transcript.messages.length} messages`);
    } catch (error) {
      figures.losses.push(`${label}: the export file is not a whole transcript: ${error instanceof Error ? error.message : String(error)}`);
    }
    return true;
  }

  function dumpConversation(conversationId: string): ConversationDump {
    const reader = new Database(databasePath, { readonly: true, fileMustExist: true });
    try {
      return {
        messages: reader.prepare('SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq').all(conversationId) as Array<Record<string, unknown>>,
        invocations: reader
          .prepare('SELECT * FROM tool_invocations WHERE message_id IN (SELECT id FROM messages WHERE conversation_id = ?) ORDER BY id')
          .all(conversationId) as Array<Record<string, unknown>>,
        brainState: reader.prepare('SELECT * FROM brain_state WHERE conversation_id = ? ORDER BY brain').all(conversationId) as Array<Record<string, unknown>>,
      };
    } finally {
      reader.close();
    }
  }

  async function importCompactionConversation(): Promise<string> {
    const imported = await runToEnd(['import', compactionFile]);
    if (imported.code !== 0) throw new Error(`Importing the conversation to compact failed: ${imported.stderr}`);
    giveOllamaASmallWindow(databasePath);
    return imported.stdout.trim();
  }

  const compactArgs = (conversationId: string) => ['compact', '--conversation', conversationId, '--brain', 'ollama'];
  /** The number of messages a compaction said it was summarising, once it said so. */
  const spanRowsOf = (stderr: string) => {
    const stated = /is summarising (\d+) messages…\n/.exec(stderr)?.[1];
    return stated === undefined ? null : Number(stated);
  };

  /** An unkilled compaction, timed part by part: the moments the kills aim at come from it. */
  async function timeCompaction(): Promise<CompactionTimings> {
    const conversationId = await importCompactionConversation();
    const before = dumpConversation(conversationId);
    const traffic = watchSummaryTraffic();
    try {
      const startedAt = Date.now();
      const started = start(compactArgs(conversationId));
      let printedAt = 0;
      // The summary is printed right after its transaction commits.
      const printed = (async () => {
        while (started.stdout() === '' && !started.hasExited()) await sleep(1);
        printedAt = Date.now();
      })();
      const code = await started.exited;
      await printed;
      const outcome = compactionOutcome(before, dumpConversation(conversationId), spanRowsOf(started.stderr()));
      if (code !== 0 || outcome.kind !== 'compacted') throw new Error(`The unkilled compaction did not compact (${JSON.stringify(outcome)}): ${started.stderr()}`);
      const { requestedAt, finishedAt } = traffic;
      if (requestedAt.length < 2 || finishedAt.length !== requestedAt.length) {
        throw new Error(`The unkilled compaction made ${requestedAt.length} summary requests (${finishedAt.length} answered); the phase needs several parts`);
      }
      return {
        firstRequestMs: requestedAt[0]! - startedAt,
        parts: requestedAt.length,
        streamMs: requestedAt.map((at, index) => finishedAt[index]! - at),
        gapMs: requestedAt.slice(1).map((at, index) => at - finishedAt[index]!),
        commitMs: printedAt - finishedAt[finishedAt.length - 1]!,
      };
    } finally {
      traffic.stop();
    }
  }

  /** Where the killed compaction was, from the summary requests and replies the fake had seen at the kill, and what was stored. */
  function compactionPhase(seenAtKill: TrafficCount, parts: number, outcome: CompactionOutcome): string {
    if (outcome.kind === 'compacted') return 'compact: after the summary committed';
    const { requested, finished } = seenAtKill;
    if (requested === 0) return 'compact: before the first summary request';
    if (finished < requested) return requested < parts ? "compact: a part's summary streaming" : "compact: the last part's summary streaming";
    return finished < parts ? 'compact: between parts' : 'compact: the last summary sent, not committed';
  }

  async function compactRound(figures: Figures): Promise<boolean> {
    const conversationId = await importCompactionConversation();
    const before = dumpConversation(conversationId);
    // Nothing else writes while the compaction runs, and it writes nothing but its final transaction: the rows now are
    // the rows just before the kill.
    const rowsBefore = snapshot();
    const moment = COMPACTION_MOMENTS[(firstCompactionMoment + compactionRounds) % COMPACTION_MOMENTS.length]!;
    compactionRounds += 1;
    const timings = compactionTimings;
    const traffic = watchSummaryTraffic();
    let killed: boolean;
    let started: Started;
    let seenAtKill: TrafficCount = { requested: 0, finished: 0 };
    try {
      const startedAt = Date.now();
      started = start(compactArgs(conversationId));
      const exited = started.exited.then(() => undefined);
      // Waits for the moment, or for the process to end first; then `delayMs` more.
      const killWhen = async (condition: () => boolean, delayMs: number): Promise<boolean> => {
        await Promise.race([traffic.until(condition), exited]);
        if (delayMs > 0) await Promise.race([sleep(delayMs), exited]);
        if (started.hasExited()) return false;
        // Counted before the signal: the fake may still flush a reply to the dead process after it.
        seenAtKill = { requested: traffic.requestedAt.length, finished: traffic.finishedAt.length };
        await started.kill();
        return true;
      };
      switch (moment) {
        case 'before the first request':
          killed = await killWhen(() => true, startedAt + random() * timings.firstRequestMs - Date.now());
          break;
        case 'a part streaming': {
          const part = 1 + Math.floor(random() * timings.parts);
          killed = await killWhen(() => traffic.requestedAt.length >= part, random() * timings.streamMs[part - 1]!);
          break;
        }
        case 'between parts': {
          const part = 1 + Math.floor(random() * (timings.parts - 1));
          killed = await killWhen(() => traffic.finishedAt.length >= part, random() * timings.gapMs[part - 1]!);
          break;
        }
        case 'the final transaction':
          killed = await killWhen(() => traffic.finishedAt.length >= timings.parts, random() * timings.commitMs);
          break;
        default: {
          const unreachable: never = moment;
          throw new Error(`Unknown compaction moment ${String(unreachable)}`);
        }
      }
    } finally {
      traffic.stop();
    }
    if (!killed) return false;

    const label = `kill ${figures.kills + 1} (compaction aimed at ${moment})`;
    // The next start, `PRAGMA integrity_check` and every row committed before the kill, as after every kill.
    (await checkAfterKill(figures, label, rowsBefore)).close();
    const afterKill = dumpConversation(conversationId);
    const outcome = compactionOutcome(before, afterKill, spanRowsOf(started.stderr()));
    const phase = compactionPhase(seenAtKill, timings.parts, outcome);
    figures.killsByPhase[phase] = (figures.killsByPhase[phase] ?? 0) + 1;
    switch (outcome.kind) {
      case 'as before':
        figures.compactionsAsBefore += 1;
        break;
      case 'compacted':
        figures.compactionsWhole += 1;
        break;
      case 'broken':
        figures.losses.push(`${label}: the killed compaction left the conversation half changed: ${outcome.problem}`);
        return true;
      default: {
        const unreachable: never = outcome;
        throw new Error(`Unknown compaction outcome ${JSON.stringify(unreachable)}`);
      }
    }

    // The next compaction completes: it compacts what the killed one left, or finds nothing left to compact.
    const next = await runToEnd(compactArgs(conversationId));
    const afterNext = dumpConversation(conversationId);
    const nextOutcome = compactionOutcome(before, afterNext, outcome.kind === 'as before' ? spanRowsOf(next.stderr) : outcome.covered);
    if (next.code !== 0) {
      figures.losses.push(`${label}: the next compaction exited with ${String(next.code)}: ${next.stderr}`);
    } else if (nextOutcome.kind !== 'compacted') {
      figures.losses.push(`${label}: after the next compaction the conversation is ${nextOutcome.kind === 'broken' ? `broken: ${nextOutcome.problem}` : 'not compacted'}`);
    } else if (outcome.kind === 'compacted' && !sameRows(afterKill.messages, afterNext.messages)) {
      figures.losses.push(`${label}: the next compaction changed a conversation the killed one had compacted: ${next.stderr}`);
    } else {
      figures.compactionsCompletedAfter += 1;
    }
    return true;
  }

  it(
    'loses no committed row, leaves no reply streaming, and keeps all but one checkpoint of the shown text',
    async () => {
      // Data that every kill must leave alone: one finished turn, one imported conversation, one export.
      const firstTurn = await runToEnd(['chat', '--brain', 'kimi', 'hello before the soak']);
      expect(firstTurn.stdout).toBe('Fake Kimi reply to: hello before the soak\n');
      let startedAt = Date.now();
      const imported = await runToEnd(['import', importFile]);
      importTookMs = Date.now() - startedAt;
      expect(imported.code).toBe(0);
      importedConversations = 1;
      exportedConversation = imported.stdout.trim();
      startedAt = Date.now();
      expect((await runToEnd(['export', '--conversation', exportedConversation, '--format', 'json', '--out', exportFile])).code).toBe(0);
      exportTookMs = Date.now() - startedAt;
      expect(existsSync(exportFile)).toBe(true);
      compactionTimings = await timeCompaction();

      const figures: Figures = { kills: 0, unreapedZombies: 0, killsByPhase: {}, finishedBeforeKill: 0, rowsChecked: 0, repliesCompared: 0, mostUnstoredWords: 0, compactionsAsBefore: 0, compactionsWhole: 0, compactionsCompletedAfter: 0, losses: [] };
      for (let round = 0; figures.kills < KILLS; round += 1) {
        const scenario = SCENARIOS[round % SCENARIOS.length] ?? 'chat';
        const wasKilled =
          scenario === 'chat' ? await chatRound(figures, round, false)
          : scenario === 'chat-tool' ? await chatRound(figures, round, true)
          : scenario === 'import' ? await importRound(figures)
          : scenario === 'export' ? await exportRound(figures)
          : scenario === 'compact' ? await compactRound(figures)
          : await serveRound(figures, round);
        if (wasKilled) figures.kills += 1;
        else figures.finishedBeforeKill += 1;
      }

      console.log(
        [
          `Kill soak, seed ${SEED}: ${figures.kills} kills (import took ${importTookMs} ms and export ${exportTookMs} ms unkilled) (${figures.finishedBeforeKill} runs finished before their kill moment and do not count).`,
          ...Object.entries(figures.killsByPhase).sort(([left], [right]) => left.localeCompare(right)).map(([phase, count]) => `  ${phase}: ${count}`),
          `Web host kills whose process was still an unreaped zombie (state Z in /proc) during the next start: ${figures.unreapedZombies}.`,
          `Row checks (every row of a read-only snapshot taken just before each kill, found again after it): ${figures.rowsChecked}.`,
          `Replies compared with what was shown: ${figures.repliesCompared}; most words shown but unstored: ${figures.mostUnstoredWords} ` +
            `(allowed ${MOST_UNSTORED_WORDS}: ${CHECKPOINT_INTERVAL_MS} ms + ${TIMER_MARGIN_MS} ms margin at one word per ${SLOW_DELAY_MS} ms, of ${SLOW_CHUNK_COUNT}).`,
          `Compactions (Ollama's 4,096-token window: ${compactionTimings.parts} parts; unkilled, the first request came at ${compactionTimings.firstRequestMs} ms, ` +
            `each part's summary took ${compactionTimings.streamMs.join('/')} ms, the gaps between parts ${compactionTimings.gapMs.join('/')} ms, ` +
            `and the summary was printed ${compactionTimings.commitMs} ms after the last part's): killed ${figures.compactionsAsBefore + figures.compactionsWhole}, ` +
            `${figures.compactionsAsBefore} left the conversation exactly as before, ${figures.compactionsWhole} had committed whole, ` +
            `the next \`anybrain compact\` completed after ${figures.compactionsCompletedAfter}.`,
          `Losses: ${figures.losses.length}.`,
        ].join('\n'),
      );
      expect(figures.losses).toEqual([]);
      expect(figures.kills).toBe(KILLS);
    },
    60_000 + KILLS * 10_000,
  );
});
