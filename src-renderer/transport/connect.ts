import { connectionFromBridge, type Connection } from './connection';
import { sessionStorageOrNull, takeLaunchToken } from './launch-token';
import { createWebConnection } from './web-transport';

/** The preload's bridge inside Electron; the web host's HTTP and event stream in a browser. */
export function connectToHost(): Connection {
  if (window.anybrain !== undefined) return connectionFromBridge(window.anybrain);
  // Runs before the app reads the address for a conversation, so the launch fragment is gone by then.
  const token = takeLaunchToken({ location: window.location, history: window.history, storage: sessionStorageOrNull() });
  return createWebConnection({ fetchFn: (input, init) => fetch(input, init), token });
}
