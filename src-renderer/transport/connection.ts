import type { AnybrainBridge, Api, ApiEvent } from '../../src-shared/api';

export type ConnectionStatus = 'connecting' | 'live' | 'reconnecting';

/** What the renderer needs from a host: the Api, its events, and word of when events may have been missed. */
export interface Connection {
  readonly api: Api;
  readonly host: 'electron' | 'web';
  readonly onEvent: (listener: (event: ApiEvent) => void) => () => void;
  /** Called after a reconnect: events sent while disconnected are lost, so state must be fetched again. */
  readonly onResync: (listener: () => void) => () => void;
  readonly onStatus: (listener: (status: ConnectionStatus) => void) => () => void;
}

/** The Electron preload's bridge: IPC never drops events, so it never needs a resync. */
export function connectionFromBridge(bridge: AnybrainBridge): Connection {
  return {
    api: bridge.api,
    host: bridge.host,
    onEvent: (listener) => bridge.onEvent(listener),
    onResync: () => () => undefined,
    onStatus: (listener) => {
      listener('live');
      return () => undefined;
    },
  };
}
