import { connectionFromBridge, type Connection } from './connection';
import { createWebConnection } from './web-transport';

/** The preload's bridge inside Electron; the web host's HTTP + SSE in a browser. */
export function connectToHost(): Connection {
  if (window.anybrain !== undefined) return connectionFromBridge(window.anybrain);
  return createWebConnection({
    fetchFn: (input, init) => fetch(input, init),
    openEventSource: (url) => new EventSource(url),
  });
}
