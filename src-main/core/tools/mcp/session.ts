/**
 * One spawned MCP server process and its client: started with the minimal environment, its stderr tail kept to
 * explain its end, and stopped the MCP way (stdin closed) before SIGTERM and SIGKILL.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from './config';
import { serverEnvironment } from './environment';
import type { McpHostOptions, McpToolInfo } from './host-options';
import { settlesWithin } from './waiting';

const STDERR_TAIL_CHARS = 4_000;

/** The stdio transport, remembering the pid it spawned: the SDK forgets it as soon as it starts closing. */
export class TrackedStdioTransport extends StdioClientTransport {
  spawnedPid: number | null = null;

  override async start(): Promise<void> {
    await super.start();
    this.spawnedPid = this.pid;
  }
}

/** One spawned process and its client. */
export interface Session {
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

/** Signals a process that may be gone already. */
function sendSignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

export type Outcome<Value> = { readonly kind: 'value'; readonly value: Value } | { readonly kind: 'error'; readonly error: unknown } | { readonly kind: 'closed' };

/** Settles with the promise, or as `closed` when the process ends first, so nothing waits on a dead server. */
export function untilClosed<Value>(session: Session, promise: Promise<Value>): Promise<Outcome<Value>> {
  return Promise.race([
    promise.then(
      (value): Outcome<Value> => ({ kind: 'value', value }),
      (error: unknown): Outcome<Value> => ({ kind: 'error', error }),
    ),
    session.closed.then((): Outcome<Value> => ({ kind: 'closed' })),
  ]);
}

/** A session for one config; the process starts when its client connects. `onClosed` hears of the process's end. */
export function createSession(config: McpServerConfig, options: McpHostOptions, onClosed: (session: Session) => void): Session {
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
    onClosed(session);
  };
  session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    session.tools = null;
  });
  return session;
}

/** Why a session's process ended, in words: its last lines of stderr. */
export function endReason(session: Session): string {
  const lines = session.stderrTail.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
  const tail = lines.slice(-3).join(' | ').slice(-500);
  return tail === '' ? 'the process exited.' : `the process exited. Its last output: ${tail}`;
}

/** Makes sure the session's process is gone: stdin closed, then SIGTERM, then SIGKILL, each after its grace. */
export async function terminateSession(session: Session, options: McpHostOptions): Promise<void> {
  session.closeRequested = true;
  // Closing the client ends the server's stdin; the SDK escalates on its own, slower schedule too.
  const closing = session.client.close().catch(() => undefined);
  const pid = session.transport.spawnedPid;
  if (pid !== null && !session.isClosed) {
    const { closeGraceMs, killGraceMs } = options;
    if (!(await settlesWithin(session.closed, closeGraceMs))) {
      sendSignal(pid, 'SIGTERM');
      if (!(await settlesWithin(session.closed, killGraceMs))) {
        sendSignal(pid, 'SIGKILL');
        await settlesWithin(session.closed, killGraceMs);
      }
    }
  }
  await settlesWithin(closing, options.killGraceMs);
}
