import {
  ApiError,
  WEB_COMMAND_PATH,
  WEB_EVENTS_PATH,
  createApi,
  type ApiEvent,
  type ApiTransport,
  type CommandInput,
  type CommandName,
  type CommandOutput,
  type CommandResult,
} from '../../src-shared/api';
import { bearerHeaderValue } from '../../src-shared/web-launch';
import type { Connection, ConnectionStatus } from './connection';
import { EventStreamParser } from './event-stream';

export interface WebTransportDependencies {
  /** Used for commands and for the event stream, which `EventSource` cannot send an Authorization header on. */
  readonly fetchFn: typeof fetch;
  /** The launch token, sent as `Authorization: Bearer`; without one the host refuses with how to get it. */
  readonly token: string | null;
  /** Delays before re-opening an event stream that ended, failed or was refused; a stream that opens resets them. */
  readonly retryDelaysMs?: readonly number[];
  readonly setTimer?: (callback: () => void, delayMs: number) => unknown;
}

const MAX_PLAIN_ERROR_LENGTH = 300;
const DEFAULT_RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

function isCommandResult(value: unknown): value is CommandResult<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  if (value.ok === true) return 'value' in value;
  if (value.ok !== false || !('error' in value)) return false;
  const error = value.error;
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    'message' in error &&
    typeof error.message === 'string'
  );
}

function parseEvent(data: string): ApiEvent | null {
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed === 'object' && parsed !== null && 'type' in parsed && typeof parsed.type === 'string') {
      return parsed as ApiEvent;
    }
  } catch {
    // A malformed frame is dropped; the next resync repairs whatever it carried.
  }
  return null;
}

function authorizationHeaders(token: string | null): Record<string, string> {
  return token === null ? {} : { authorization: bearerHeaderValue(token) };
}

export async function invokeOverHttp<Name extends CommandName>(
  fetchFn: typeof fetch,
  token: string | null,
  name: Name,
  input: CommandInput<Name>,
): Promise<CommandOutput<Name>> {
  let response: Response;
  try {
    response = await fetchFn(`${WEB_COMMAND_PATH}/${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authorizationHeaders(token) },
      body: JSON.stringify(input ?? {}),
      // The token travels in the header only; the host neither sets nor reads cookies.
      credentials: 'omit',
    });
  } catch {
    throw new ApiError('connection', 'Anybrain is not reachable. Check that the app is still running.');
  }
  let body = '';
  try {
    body = await response.text();
  } catch {
    // An unreadable body is reported below like an empty one.
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(body);
  } catch {
    // The host answers refusals before dispatch (a missing session, a bad origin) in plain sentences.
    const isPlainText = (response.headers.get('content-type') ?? '').startsWith('text/plain');
    const sentence = isPlainText ? body.trim().slice(0, MAX_PLAIN_ERROR_LENGTH) : '';
    throw new ApiError(
      response.status === 401 || response.status === 403 ? 'unauthorized' : 'bad-response',
      sentence === '' ? `Anybrain answered with HTTP ${response.status} and no result.` : sentence,
    );
  }
  if (!isCommandResult(envelope)) {
    throw new ApiError('bad-response', `Anybrain answered with HTTP ${response.status} and an unreadable result.`);
  }
  if (!envelope.ok) throw new ApiError(envelope.error.code, envelope.error.message);
  return envelope.value as CommandOutput<Name>;
}

/** The Api over HTTP POST per command and one shared event stream, both carrying the bearer token. */
export function createWebConnection(dependencies: WebTransportDependencies): Connection {
  const { fetchFn, token } = dependencies;
  const retryDelaysMs = dependencies.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const setTimer = dependencies.setTimer ?? ((callback: () => void, delayMs: number) => setTimeout(callback, delayMs));

  const eventListeners = new Set<(event: ApiEvent) => void>();
  const resyncListeners = new Set<() => void>();
  const statusListeners = new Set<(status: ConnectionStatus) => void>();
  let status: ConnectionStatus = 'connecting';
  /** The stream being read; replaced on reconnect, null once the last listener has left. */
  let stream: AbortController | null = null;
  let hasBeenLive = false;
  let failedAttempts = 0;

  const setStatus = (next: ConnectionStatus): void => {
    if (next === status) return;
    status = next;
    for (const listener of statusListeners) listener(next);
  };

  const markLive = (): void => {
    failedAttempts = 0;
    setStatus('live');
    if (hasBeenLive) {
      for (const listener of resyncListeners) listener();
    }
    hasBeenLive = true;
  };

  /** Reads one stream until it ends, fails, is refused or is aborted. Never rejects. */
  const readStream = async (current: AbortController): Promise<void> => {
    let response: Response;
    try {
      response = await fetchFn(WEB_EVENTS_PATH, {
        headers: { accept: 'text/event-stream', ...authorizationHeaders(token) },
        credentials: 'omit',
        cache: 'no-store',
        signal: current.signal,
      });
    } catch {
      return;
    }
    const body = response.body;
    if (!response.ok || body === null || stream !== current) {
      await body?.cancel().catch(() => undefined);
      return;
    }
    markLive();
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const parser = new EventStreamParser();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || stream !== current) break;
        for (const data of parser.push(decoder.decode(value, { stream: true }))) {
          const event = parseEvent(data);
          if (event === null) continue;
          for (const listener of eventListeners) listener(event);
        }
      }
    } catch {
      // A dropped connection or an abort ends the read like the end of the stream.
    }
    await reader.cancel().catch(() => undefined);
  };

  const open = (): void => {
    const current = new AbortController();
    stream = current;
    void readStream(current).then(() => {
      if (stream !== current) return;
      // Events sent while no stream is open are lost; the resync after the next open repairs them.
      setStatus(hasBeenLive ? 'reconnecting' : 'connecting');
      const delay = retryDelaysMs[Math.min(failedAttempts, retryDelaysMs.length - 1)] ?? 30_000;
      failedAttempts += 1;
      setTimer(() => {
        if (stream === current) open();
      }, delay);
    });
  };

  const close = (): void => {
    const current = stream;
    stream = null;
    current?.abort();
  };

  const transport: ApiTransport = {
    invoke: (name, input) => invokeOverHttp(fetchFn, token, name, input),
    subscribe: (listener) => {
      eventListeners.add(listener);
      if (stream === null) open();
      return () => {
        eventListeners.delete(listener);
        if (eventListeners.size === 0) close();
      };
    },
  };

  return {
    api: createApi(transport),
    host: 'web',
    onEvent: (listener) => transport.subscribe(listener),
    onResync: (listener) => {
      resyncListeners.add(listener);
      return () => resyncListeners.delete(listener);
    },
    onStatus: (listener) => {
      statusListeners.add(listener);
      listener(status);
      return () => statusListeners.delete(listener);
    },
  };
}
