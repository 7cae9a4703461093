/**
 * One MCP server process over stdio: started on first use, restarted after a crash (within a budget), stopped for good
 * by `dispose()`. Every call resolves: a crash, a timeout or a shutdown becomes an error result, never a hang.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerStatus } from '../../../../src-shared/tool-rules';
import type { ToolResult } from '../catalogue';
import type { McpServerConfig } from './config';
import { DEFAULT_HOST_OPTIONS, type McpHostOptions, type McpToolInfo } from './host-options';
import { toToolResult } from './result';
import { createSession, endReason, terminateSession, untilClosed, type Session } from './session';
import { ShutDownError, sleep, unlessAborted } from './waiting';

export { DEFAULT_HOST_OPTIONS, type McpHostOptions, type McpToolInfo };

/** A host's process: every server status but `disabled`, which only the manager's config can say. */
export type McpServerState = Exclude<McpServerStatus, 'disabled'>;

/** Something that holds a resource until its one owner disposes of it. */
export interface AsyncDisposable {
  dispose(): Promise<void>;
}

const RESTART_WINDOW_MS = 60_000;
const MAX_BACKOFF_MS = 5_000;
const MAX_TOOL_PAGES = 100;

function seconds(milliseconds: number): string {
  return `${Math.round(milliseconds / 100) / 10} s`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
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
      return { output: `The MCP server "${this.label}" stopped during the call: ${endReason(session)}`, isError: true };
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
      if (session) await terminateSession(session, this.options);
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
    const session = createSession(this.config, this.options, (closed) => this.onSessionClosed(closed));
    try {
      await session.client.connect(session.transport, { timeout: this.options.startTimeoutMs, signal: this.shutdown.signal });
    } catch (error) {
      // Described before terminating: terminating closes the session, which would read as an exit.
      const failure = this.startFailure(error, session);
      await terminateSession(session, this.options);
      if (this.shutdown.signal.aborted) {
        this.state = 'stopped';
        throw new Error(`The MCP server "${this.label}" is shut down.`);
      }
      this.state = 'failed';
      this.recordAbnormalEnd(failure);
      throw new Error(failure);
    }
    if (this.shutdown.signal.aborted) {
      await terminateSession(session, this.options);
      this.state = 'stopped';
      throw new Error(`The MCP server "${this.label}" is shut down.`);
    }
    this.session = session;
    this.state = 'running';
    // A notice that restarts were used up no longer holds once a start succeeds; the failure itself stays reported.
    this.error = this.cause;
    return session;
  }

  private onSessionClosed(session: Session): void {
    if (session !== this.session) return;
    this.session = null;
    this.state = 'stopped';
    if (session.closeRequested || this.shutdown.signal.aborted) return;
    this.recordAbnormalEnd(`The MCP server "${this.label}" stopped unexpectedly: ${endReason(session)}`);
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
      return `The MCP server "${label}" exited while starting: ${endReason(session)}`;
    }
    return `The MCP server "${label}" could not start: ${messageOf(error)}`;
  }

  private async fetchTools(session: Session): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
      const outcome = await untilClosed(session, session.client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: this.options.toolTimeoutMs }));
      if (outcome.kind === 'closed') throw new Error(`The MCP server "${this.label}" stopped while listing its tools: ${endReason(session)}`);
      if (outcome.kind === 'error') throw new Error(`The MCP server "${this.label}" could not list its tools: ${messageOf(outcome.error)}`);
      for (const tool of outcome.value.tools) {
        tools.push({ name: tool.name, description: tool.description ?? tool.title ?? '', inputSchema: tool.inputSchema });
      }
      cursor = outcome.value.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  }


}
