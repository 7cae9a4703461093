/**
 * The preload: exposes `window.anybrain` (an `AnybrainBridge`) and nothing else. It runs sandboxed, where `require`
 * reaches only a few Electron modules, so everything it imports besides `electron` must be bundled into it.
 */
import type { IpcRenderer, IpcRendererEvent } from 'electron';
import { contextBridge, ipcRenderer } from 'electron';
import type { AnybrainBridge, Api, ApiEvent, CommandName } from '../../src-shared/api';
import { ApiError, COMMAND_NAMES, IPC_COMMAND_CHANNEL, IPC_EVENT_CHANNEL } from '../../src-shared/api';

type RendererChannel = Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;

/** Unwraps a `CommandResult` envelope: its value, or an `ApiError` carrying the main process's code. */
export function unwrapResult(name: CommandName, result: unknown): unknown {
  if (typeof result === 'object' && result !== null && 'ok' in result) {
    if (result.ok === true && 'value' in result) return result.value;
    if (result.ok === false && 'error' in result && typeof result.error === 'object' && result.error !== null) {
      const { code, message } = result.error as { code?: unknown; message?: unknown };
      throw new ApiError(
        typeof code === 'string' ? code : 'error',
        typeof message === 'string' ? message : `The command ${name} failed.`,
      );
    }
  }
  throw new ApiError('bad-response', `The command ${name} got a malformed answer from the main process.`);
}

export function createBridge(channel: RendererChannel): AnybrainBridge {
  const api: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const name of COMMAND_NAMES) {
    api[name] = async (input: unknown) => unwrapResult(name, await channel.invoke(IPC_COMMAND_CHANNEL, name, input));
  }
  return {
    api: api as unknown as Api,
    onEvent(listener: (event: ApiEvent) => void): () => void {
      // The IpcRendererEvent (which holds `sender`, the ipcRenderer itself) stays on this side of the bridge.
      const relay = (_event: IpcRendererEvent, apiEvent: ApiEvent): void => {
        listener(apiEvent);
      };
      channel.on(IPC_EVENT_CHANNEL, relay);
      return () => {
        channel.removeListener(IPC_EVENT_CHANNEL, relay);
      };
    },
    host: 'electron',
  };
}

contextBridge.exposeInMainWorld('anybrain', createBridge(ipcRenderer));
