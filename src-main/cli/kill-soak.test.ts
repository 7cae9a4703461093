/**
 * Kill soak: the built command line and web host, killed with SIGKILL at random moments of a reply streaming, a tool
 * call, an import and an export, against the fake brains. After every kill the next start must find the data whole:
 * `PRAGMA integrity_check` is `ok`, every row committed before the kill is still there, a reply keeps all but at most
 * one checkpoint interval (250 ms) of the text that was shown, no row stays `streaming`, an import is all or nothing,
 * and an export file is whole. A killed web host stays an unreaped zombie while the next start runs.
 *
 * `npm test` runs ANYBRAIN_SOAK_KILLS=10 (the default); `npm run test:soak` runs 100. ANYBRAIN_SOAK_SEED replays the
 * kill moments (process timing still varies). The command line is built from this checkout into out/kill-soak-cli-<pid>
 * first, because the unit stage of `npm test` runs before `npm run build`. Compaction has no code yet: no phase.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAIN_IDS, BRAINS } from '../../src-shared/brains';
import { transcriptSchema } from '../../src-shared/transcript';
import { startFakeBrains, type FakeBrains } from '../../e2e/fake-brains/server';
import { SLOW_CHUNK_COUNT, SLOW_DELAY_MS } from '../../e2e/fake-brains/script';
import { DATABASE_FILE } from '../core/app';

const KILLS = Number(process.env.ANYBRAIN_SOAK_KILLS ?? '10');
const SEED = Number(process.env.ANYBRAIN_SOAK_SEED ?? String(Date.now() % 2_147_483_647));
/** The engine checkpoints a streaming reply at least this often (engine/run-turn.ts). */
const CHECKPOINT_INTERVAL_MS = 250;
/** Timers of a busy two-core machine fire late: what may be unstored is one interval plus this. */
const TIMER_MARGIN_MS = 250;
/** The fake brain streams `[slow]` replies one word every SLOW_DELAY_MS: the most words shown but not stored. */
const MOST_UNSTORED_WORDS = Math.ceil((CHECKPOINT_INTERVAL_MS + TIMER_MARGIN_MS) / SLOW_DELAY_MS);
const IMPORTED_MESSAGES = 1_500;

const repoRoot = resolve(import.meta.dirname, '..', '..');
// Inside the checkout, so the bundle's external imports resolve from its node_modules; one folder per run.
const builtCliFolder = join(repoRoot, 'out', `kill-soak-cli-${process.pid}`);
const builtCli = join(builtCliFolder, 'anybrain.js');

type Scenario = 'chat' | 'chat-tool' | 'import' | 'export' | 'serve';
const SCENARIOS: readonly Scenario[] = ['chat', 'chat-tool', 'import', 'export', 'serve'];
/**
 * How long after the start a reply's kill may fall: across start-up, the tool call and most of the reply (a `[slow]`
 * reply streams for SLOW_CHUNK_COUNT × SLOW_DELAY_MS). An import's or export's window is as long as an unkilled run took.
 */
const REPLY_KILL_WINDOW_MS: Readonly<Record<'chat' | 'chat-tool' | 'serve', number>> = { chat: 3_000, 'chat-tool': 1_600, serve: 3_000 };

/** mulberry32: a small seeded generator, so a failing run can be replayed with its seed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

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
  losses: string[];
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolvePromise) => setTimeout(resolvePromise, milliseconds));
}

function buildCli(): void {
  const vite = join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--config', 'vite.node.config.ts', '--outDir', builtCliFolder, '--emptyOutDir', '--logLevel', 'error'],
    { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 },
  );
  if (result.status !== 0) throw new Error(`Building the command line failed:\n${result.stdout}\n${result.stderr}`);
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
  const random = seededRandom(SEED);
  const children = new Set<ChildProcess>();

  beforeAll(async () => {
    buildCli();
    fakeBrains = await startFakeBrains({ openAiSpecPath: null });
    dataDir = mkdtempSync(join(tmpdir(), 'anybrain-kill-soak-'));
    databasePath = join(dataDir, DATABASE_FILE);
    environment = { ...process.env, ANYBRAIN_DATA_DIR: dataDir };
    for (const brain of BRAIN_IDS) environment[BRAINS[brain].baseUrlVariable] = fakeBrains.baseUrlFor(brain);
    importFile = join(dataDir, 'long-transcript.json');
    writeFileSync(importFile, JSON.stringify(longTranscript()));
    exportFile = join(dataDir, 'export.json');
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

      const figures: Figures = { kills: 0, unreapedZombies: 0, killsByPhase: {}, finishedBeforeKill: 0, rowsChecked: 0, repliesCompared: 0, mostUnstoredWords: 0, losses: [] };
      for (let round = 0; figures.kills < KILLS; round += 1) {
        const scenario = SCENARIOS[round % SCENARIOS.length] ?? 'chat';
        const wasKilled =
          scenario === 'chat' ? await chatRound(figures, round, false)
          : scenario === 'chat-tool' ? await chatRound(figures, round, true)
          : scenario === 'import' ? await importRound(figures)
          : scenario === 'export' ? await exportRound(figures)
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
          `Losses: ${figures.losses.length}.`,
        ].join('\n'),
      );
      expect(figures.losses).toEqual([]);
      expect(figures.kills).toBe(KILLS);
    },
    60_000 + KILLS * 10_000,
  );
});
