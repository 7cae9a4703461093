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
import type { Connection, ConnectionStatus } from './connection';

/** The parts of `EventSource` the transport uses, so tests can supply their own. */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent<string>) => void) | null;
  onerror: ((event: Event) => void) | null;
  close(): void;
}

export interface WebTransportDependencies {
  readonly fetchFn: typeof fetch;
  readonly openEventSource: (url: string) => EventSourceLike;
  /** Delays before re-opening a stream the browser gave up on (it retries dropped streams by itself). */
  readonly retryDelaysMs?: readonly number[];
  readonly setTimer?: (callback: () => void, delayMs: number) => unknown;
}

const EVENT_SOURCE_CLOSED = 2;
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

export async function invokeOverHttp<Name extends CommandName>(
  fetchFn: typeof fetch,
  name: Name,
  input: CommandInput<Name>,
): Promise<CommandOutput<Name>> {
  let response: Response;
  try {
    response = await fetchFn(`${WEB_COMMAND_PATH}/${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input ?? {}),
      credentials: 'same-origin',
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

/** The Api over HTTP POST per command and one shared SSE stream for events. */
export function createWebConnection(dependencies: WebTransportDependencies): Connection {
  const { fetchFn, openEventSource } = dependencies;
  const retryDelaysMs = dependencies.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const setTimer = dependencies.setTimer ?? ((callback: () => void, delayMs: number) => setTimeout(callback, delayMs));

  const eventListeners = new Set<(event: ApiEvent) => void>();
  const resyncListeners = new Set<() => void>();
  const statusListeners = new Set<(status: ConnectionStatus) => void>();
  let status: ConnectionStatus = 'connecting';
  let source: EventSourceLike | null = null;
  let hasBeenLive = false;
  let failedAttempts = 0;
  let retryPending = false;

  const setStatus = (next: ConnectionStatus): void => {
    if (next === status) return;
    status = next;
    for (const listener of statusListeners) listener(next);
  };

  const open = (): void => {
    const current = openEventSource(WEB_EVENTS_PATH);
    source = current;
    current.onopen = () => {
      failedAttempts = 0;
      setStatus('live');
      if (hasBeenLive) {
        for (const listener of resyncListeners) listener();
      }
      hasBeenLive = true;
    };
    current.onmessage = (message) => {
      const event = parseEvent(message.data);
      if (event === null) return;
      for (const listener of eventListeners) listener(event);
    };
    current.onerror = () => {
      if (source !== current) return;
      setStatus(hasBeenLive ? 'reconnecting' : 'connecting');
      if (current.readyState !== EVENT_SOURCE_CLOSED || retryPending) return;
      // The browser stops retrying after a refused response; try again ourselves, more slowly each time.
      current.close();
      retryPending = true;
      const delay = retryDelaysMs[Math.min(failedAttempts, retryDelaysMs.length - 1)] ?? 30_000;
      failedAttempts += 1;
      setTimer(() => {
        retryPending = false;
        if (source === current && eventListeners.size > 0) open();
      }, delay);
    };
  };

  const close = (): void => {
    const current = source;
    source = null;
    current?.close();
  };

  const transport: ApiTransport = {
    invoke: (name, input) => invokeOverHttp(fetchFn, name, input),
    subscribe: (listener) => {
      eventListeners.add(listener);
      if (source === null) open();
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
