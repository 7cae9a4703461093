/**
 * One MCP server process over stdio: started on first use, restarted after a crash (within a budget), stopped for good
 * by `dispose()`. Every call resolves: a crash, a timeout or a shutdown becomes an error result, never a hang.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../catalogue';
import type { McpServerStatus } from '../../../../src-shared/tool-rules';
import type { McpServerConfig } from './config';
import { serverEnvironment } from './environment';
import { toToolResult } from './result';

/** A host's process: every server status but `disabled`, which only the manager's config can say. */
export type McpServerState = Exclude<McpServerStatus, 'disabled'>;

/** Something that holds a resource until its one owner disposes of it. */
export interface AsyncDisposable {
  dispose(): Promise<void>;
}

export interface McpToolInfo {
  /** The tool's own name, as the server declares it. */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

export interface McpHostOptions {
  /** How long one tool call may take before it is cancelled. */
  readonly toolTimeoutMs: number;
  /** How long the process may take to spawn and answer `initialize`. */
  readonly startTimeoutMs: number;
  /** Restarts allowed within a minute after crashes or failed starts; past that the server is reported failing. */
  readonly maxRestartsPerMinute: number;
  /** Wait before the first restart; it doubles for each further restart within the minute. */
  readonly restartBackoffMs: number;
  /** After closing the server's stdin (the MCP way to ask it to exit), how long to wait before SIGTERM. */
  readonly closeGraceMs: number;
  /** After SIGTERM, how long to wait before SIGKILL. */
  readonly killGraceMs: number;
  /** The server's working directory; the app's when unset. */
  readonly cwd?: string;
  /** The environment the minimal server environment is drawn from (PATH, HOME). */
  readonly parentEnvironment?: NodeJS.ProcessEnv;
  readonly clientInfo: { readonly name: string; readonly version: string };
}

export const DEFAULT_HOST_OPTIONS: McpHostOptions = {
  toolTimeoutMs: 30_000,
  startTimeoutMs: 30_000,
  maxRestartsPerMinute: 3,
  restartBackoffMs: 250,
  closeGraceMs: 1_000,
  killGraceMs: 2_000,
  clientInfo: { name: 'anybrain', version: '0.1.0' },
};

const RESTART_WINDOW_MS = 60_000;
const MAX_BACKOFF_MS = 5_000;
const STDERR_TAIL_CHARS = 4_000;
const MAX_TOOL_PAGES = 100;

/** The stdio transport, remembering the pid it spawned: the SDK forgets it as soon as it starts closing. */
class TrackedStdioTransport extends StdioClientTransport {
  spawnedPid: number | null = null;

  override async start(): Promise<void> {
    await super.start();
    this.spawnedPid = this.pid;
  }
}

/** One spawned process and its client. */
interface Session {
  readonly client: Client;
  readonly transport: TrackedStdioTransport;
  /** Resolves when the process has exited and its pipes are closed. */
  readonly closed: Promise<void>;
  isClosed: boolean;
  /** The host asked it to close (shutdown, failed start), so its end is no crash. */
  closeRequested: boolean;
  tools: Promise<McpToolInfo[]> | null;
  stderrTail: string;
}

class ShutDownError extends Error {}

function seconds(milliseconds: number): string {
  return `${Math.round(milliseconds / 100) / 10} s`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** Resolves true when the promise settles within the time, false otherwise; never leaves a timer behind. */
async function settlesWithin(promise: Promise<unknown>, milliseconds: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), milliseconds);
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits, or rejects as soon as the signal aborts. */
function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ShutDownError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ShutDownError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The promise, abandoned (not cancelled) when the caller's signal aborts. */
function unlessAborted<Value>(promise: Promise<Value>, signal: AbortSignal | undefined): Promise<Value> {
  if (!signal) return promise;
  return new Promise<Value>((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('The call was cancelled.'));
    // Handlers go on first, so an abandoned promise never rejects unhandled.
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

function sendSignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

type Outcome<Value> = { readonly kind: 'value'; readonly value: Value } | { readonly kind: 'error'; readonly error: unknown } | { readonly kind: 'closed' };

/** Settles with the promise, or as `closed` when the process ends first, so nothing waits on a dead server. */
function untilClosed<Value>(session: Session, promise: Promise<Value>): Promise<Outcome<Value>> {
  return Promise.race([
    promise.then(
      (value): Outcome<Value> => ({ kind: 'value', value }),
      (error: unknown): Outcome<Value> => ({ kind: 'error', error }),
    ),
    session.closed.then((): Outcome<Value> => ({ kind: 'closed' })),
  ]);
}

export class McpServerHost implements AsyncDisposable {
  readonly config: McpServerConfig;
  private readonly options: McpHostOptions;
  private state: McpServerState = 'stopped';
  /** What `lastError()` reports: the last failure, or the notice that restarts are exhausted. */
  private error: string | null = null;
  /** The last crash or failed start itself. */
  private cause: string | null = null;
  private session: Session | null = null;
  private starting: Promise<Session> | null = null;
  /** When the process crashed or failed to start, within the last minute. */
  private abnormalEnds: number[] = [];
  private readonly shutdown = new AbortController();
  private disposing: Promise<void> | null = null;

  constructor(config: McpServerConfig, options: Partial<McpHostOptions> = {}) {
    this.config = config;
    this.options = { ...DEFAULT_HOST_OPTIONS, ...options };
  }

  get label(): string {
    return this.config.label;
  }

  status(): McpServerState {
    return this.state;
  }

  /** The most recent failure (a crash, a failed start), kept after a successful restart; null when none. */
  lastError(): string | null {
    return this.error;
  }

  /** The running process's id, or null when no process runs. */
  get processId(): number | null {
    return this.session && !this.session.isClosed ? this.session.transport.spawnedPid : null;
  }

  /** The server's tools, starting it when needed. Listed once per process, again after the server says they changed. */
  async listTools(signal?: AbortSignal): Promise<McpToolInfo[]> {
    const session = await unlessAborted(this.ensureSession(), signal);
    session.tools ??= this.fetchTools(session);
    const listing = session.tools;
    listing.catch(() => {
      if (session.tools === listing) session.tools = null;
    });
    return unlessAborted(listing, signal);
  }

  /** Calls one tool by its own name. Always resolves: failures are error results. */
  async callTool(name: string, input: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> {
    const cancelled: ToolResult = { output: 'The call was cancelled.', isError: true };
    if (signal?.aborted) return cancelled;
    let session: Session;
    try {
      session = await unlessAborted(this.ensureSession(), signal);
    } catch (error) {
      return signal?.aborted ? cancelled : { output: messageOf(error), isError: true };
    }
    const outcome = await untilClosed(
      session,
      session.client.callTool({ name, arguments: input }, undefined, { timeout: this.options.toolTimeoutMs, ...(signal ? { signal } : {}) }),
    );
    if (outcome.kind === 'value') return toToolResult(outcome.value);
    if (signal?.aborted) return cancelled;
    if (outcome.kind === 'closed' || session.isClosed) {
      if (session.closeRequested) return { output: `The MCP server "${this.label}" was shut down during the call.`, isError: true };
      return { output: `The MCP server "${this.label}" stopped during the call: ${this.endReason(session)}`, isError: true };
    }
    const { error } = outcome;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return { output: `The MCP server "${this.label}" did not answer ${name} within ${seconds(this.options.toolTimeoutMs)}; the call was cancelled.`, isError: true };
    }
    return { output: `The MCP server "${this.label}" could not run ${name}: ${messageOf(error)}`, isError: true };
  }

  /** Stops the process for good: closes stdin, then SIGTERM, then SIGKILL, and waits until it is gone. */
  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      this.shutdown.abort();
      await this.starting?.catch(() => undefined);
      const session = this.session;
      this.session = null;
      if (session) await this.terminate(session);
      this.state = 'stopped';
    })();
    return this.disposing;
  }

  private ensureSession(): Promise<Session> {
    if (this.shutdown.signal.aborted) return Promise.reject(new Error(`The MCP server "${this.label}" is shut down.`));
    if (this.session && !this.session.isClosed) return Promise.resolve(this.session);
    this.starting ??= this.start().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private recentAbnormalEnds(): number {
    const now = Date.now();
    this.abnormalEnds = this.abnormalEnds.filter((time) => now - time < RESTART_WINDOW_MS);
    return this.abnormalEnds.length;
  }

  /** Records a crash or a failed start; reports the server failing once restarts within the minute are used up. */
  private recordAbnormalEnd(message: string): void {
    this.abnormalEnds.push(Date.now());
    this.cause = message;
    this.error = message;
    if (this.restartsExhausted()) {
      this.state = 'failed';
      this.error = this.exhaustedNotice();
    }
  }

  private restartsExhausted(): boolean {
    return this.recentAbnormalEnds() > this.options.maxRestartsPerMinute;
  }

  private exhaustedNotice(): string {
    return (
      `The MCP server "${this.label}" stopped or failed to start ${this.abnormalEnds.length} times within a minute, so it is not started ` +
      `again for now. Check its command, or turn it off and on again. Last error: ${this.cause ?? 'unknown'}`
    );
  }

  private async start(): Promise<Session> {
    if (this.restartsExhausted()) {
      this.state = 'failed';
      this.error = this.exhaustedNotice();
      throw new Error(this.error);
    }
    const restarts = this.abnormalEnds.length;
    this.state = 'starting';
    try {
      if (restarts > 0) await sleep(Math.min(this.options.restartBackoffMs * 2 ** (restarts - 1), MAX_BACKOFF_MS), this.shutdown.signal);
    } catch (error) {
      this.state = 'stopped';
      throw error instanceof ShutDownError ? new Error(`The MCP server "${this.label}" is shut down.`) : error;
    }
    const session = this.createSession();
    try {
      await session.client.connect(session.transport, { timeout: this.options.startTimeoutMs, signal: this.shutdown.signal });
    } catch (error) {
      // Described before terminating: terminating closes the session, which would read as an exit.
      const failure = this.startFailure(error, session);
      await this.terminate(session);
      if (this.shutdown.signal.aborted) {
        this.state = 'stopped';
        throw new Error(`The MCP server "${this.label}" is shut down.`);
      }
      this.state = 'failed';
      this.recordAbnormalEnd(failure);
      throw new Error(failure);
    }
    if (this.shutdown.signal.aborted) {
      await this.terminate(session);
      this.state = 'stopped';
      throw new Error(`The MCP server "${this.label}" is shut down.`);
    }
    this.session = session;
    this.state = 'running';
    // A notice that restarts were used up no longer holds once a start succeeds; the failure itself stays reported.
    this.error = this.cause;
    return session;
  }

  private createSession(): Session {
    const { config, options } = this;
    const transport = new TrackedStdioTransport({
      command: config.command,
      args: [...config.args],
      env: serverEnvironment(config.env, options.parentEnvironment),
      // Piped, not inherited: a server's log lines stay out of the app's output and explain its failures.
      stderr: 'pipe',
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    let markClosed = () => {};
    const session: Session = {
      client: new Client({ name: options.clientInfo.name, version: options.clientInfo.version }, { capabilities: {} }),
      transport,
      closed: new Promise<void>((resolve) => {
        markClosed = resolve;
      }),
      isClosed: false,
      closeRequested: false,
      tools: null,
      stderrTail: '',
    };
    transport.stderr?.on('data', (chunk: Buffer | string) => {
      session.stderrTail = (session.stderrTail + chunk.toString()).slice(-STDERR_TAIL_CHARS);
    });
    // Set before connecting: the client chains its own close handling after this one.
    transport.onclose = () => {
      session.isClosed = true;
      markClosed();
      this.onSessionClosed(session);
    };
    session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      session.tools = null;
    });
    return session;
  }

  private onSessionClosed(session: Session): void {
    if (session !== this.session) return;
    this.session = null;
    this.state = 'stopped';
    if (session.closeRequested || this.shutdown.signal.aborted) return;
    this.recordAbnormalEnd(`The MCP server "${this.label}" stopped unexpectedly: ${this.endReason(session)}`);
  }

  private endReason(session: Session): string {
    const lines = session.stderrTail.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
    const tail = lines.slice(-3).join(' | ').slice(-500);
    return tail === '' ? 'the process exited.' : `the process exited. Its last output: ${tail}`;
  }

  private startFailure(error: unknown, session: Session): string {
    const { label, config } = this;
    const code = errorCode(error);
    if (code === 'ENOENT') return `The MCP server "${label}" could not start: the command "${config.command}" was not found. Check it, or give its full path.`;
    if (code === 'EACCES') return `The MCP server "${label}" could not start: the command "${config.command}" is not executable.`;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return `The MCP server "${label}" did not finish starting within ${seconds(this.options.startTimeoutMs)}.`;
    }
    if (session.isClosed || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
      return `The MCP server "${label}" exited while starting: ${this.endReason(session)}`;
    }
    return `The MCP server "${label}" could not start: ${messageOf(error)}`;
  }

  private async fetchTools(session: Session): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
      const outcome = await untilClosed(session, session.client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: this.options.toolTimeoutMs }));
      if (outcome.kind === 'closed') throw new Error(`The MCP server "${this.label}" stopped while listing its tools: ${this.endReason(session)}`);
      if (outcome.kind === 'error') throw new Error(`The MCP server "${this.label}" could not list its tools: ${messageOf(outcome.error)}`);
      for (const tool of outcome.value.tools) {
        tools.push({ name: tool.name, description: tool.description ?? tool.title ?? '', inputSchema: tool.inputSchema });
      }
      cursor = outcome.value.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  }

  /** Makes sure the session's process is gone: stdin closed, then SIGTERM, then SIGKILL, each after its grace. */
  private async terminate(session: Session): Promise<void> {
    session.closeRequested = true;
    // Closing the client ends the server's stdin; the SDK escalates on its own, slower schedule too.
    const closing = session.client.close().catch(() => undefined);
    const pid = session.transport.spawnedPid;
    if (pid !== null && !session.isClosed) {
      const { closeGraceMs, killGraceMs } = this.options;
      if (!(await settlesWithin(session.closed, closeGraceMs))) {
        sendSignal(pid, 'SIGTERM');
        if (!(await settlesWithin(session.closed, killGraceMs))) {
          sendSignal(pid, 'SIGKILL');
          await settlesWithin(session.closed, killGraceMs);
        }
      }
    }
    await settlesWithin(closing, this.options.killGraceMs);
  }
}
