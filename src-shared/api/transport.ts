/** (contract) The renderer's side of the Api and the transports under it: IPC channels and web host routes. */
import { COMMAND_NAMES, type CommandInput, type CommandName, type CommandOutput } from './commands';
import type { ApiEvent } from './events';

/** What the renderer calls: one promise-returning function per command. */
export type Api = {
  readonly [Name in CommandName]: (input: CommandInput<Name>) => Promise<CommandOutput<Name>>;
};

/** The surface a transport exposes to the renderer (the preload's `window.anybrain`, or the web client). */
export interface ApiTransport {
  invoke<Name extends CommandName>(name: Name, input: CommandInput<Name>): Promise<CommandOutput<Name>>;
  /** Subscribe to events; returns an unsubscribe function. */
  subscribe(listener: (event: ApiEvent) => void): () => void;
}

export function createApi(transport: ApiTransport): Api {
  const api: Record<string, unknown> = {};
  for (const name of COMMAND_NAMES) {
    api[name] = (input: unknown) => transport.invoke(name, input as never);
  }
  return api as Api;
}

/**
 * What the Electron preload exposes as `window.anybrain`: exactly the Api functions and one event subscription.
 * The web client builds the same shape over HTTP + SSE.
 */
export interface AnybrainBridge {
  readonly api: Api;
  /** Subscribe to events pushed by the main process; returns an unsubscribe function. */
  readonly onEvent: (listener: (event: ApiEvent) => void) => () => void;
  /** Which host the renderer runs in. */
  readonly host: 'electron' | 'web';
}

/** IPC channel names shared by the preload and the main process. */
export const IPC_COMMAND_CHANNEL = 'anybrain:command';
export const IPC_EVENT_CHANNEL = 'anybrain:event';

/** Web host routes: POST `${WEB_COMMAND_PATH}/<name>` with the JSON input; GET `WEB_EVENTS_PATH` is an SSE stream. */
export const WEB_COMMAND_PATH = '/api/command';
export const WEB_EVENTS_PATH = '/api/events';
