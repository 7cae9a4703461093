/**
 * The IPC adapter: one invoke channel for every command, one push channel for events. The core validates each
 * command's input with zod; this adapter only decides whether the sender may speak at all.
 */
import type { BrowserWindow, IpcMainInvokeEvent, WebFrameMain } from 'electron';
import { ipcMain } from 'electron';
import type { CommandResult } from '../../src-shared/api';
import { IPC_COMMAND_CHANNEL, IPC_EVENT_CHANNEL } from '../../src-shared/api';
import type { Core } from '../core/core-types';
import type { AppPage } from './app-page';
import { isAppUrl } from './app-page';

export interface Disposable {
  dispose(): void;
}

const FORBIDDEN: CommandResult<never> = {
  ok: false,
  error: { code: 'forbidden', message: 'Commands are accepted only from the Anybrain window.' },
};

/**
 * Whether an invoke came from the top frame of the main window while it shows the app's own page. Any other frame
 * (an iframe, a page navigated elsewhere, another window) is refused.
 */
export function isTrustedSender(
  event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>,
  mainWindow: BrowserWindow | null,
  page: AppPage,
): boolean {
  if (!mainWindow || mainWindow.isDestroyed()) return false;
  const contents = mainWindow.webContents;
  if (event.sender !== contents) return false;
  const frame: WebFrameMain | null = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  const topFrame = contents.mainFrame;
  if (frame.processId !== topFrame.processId || frame.routingId !== topFrame.routingId) return false;
  return isAppUrl(page, frame.url);
}

export function registerIpc(core: Core, getMainWindow: () => BrowserWindow | null, page: AppPage): Disposable {
  ipcMain.handle(IPC_COMMAND_CHANNEL, async (event, name: unknown, input: unknown): Promise<CommandResult<unknown>> => {
    if (!isTrustedSender(event, getMainWindow(), page)) return FORBIDDEN;
    if (typeof name !== 'string') {
      return { ok: false, error: { code: 'unknown-command', message: 'A command name must be a string.' } };
    }
    try {
      return await core.dispatch(name, input);
    } catch (error) {
      // dispatch answers with envelopes; a throw here is a core bug, reported without its stack crossing over.
      console.error(`Anybrain: command ${name} threw:`, error);
      return { ok: false, error: { code: 'internal', message: `The command ${name} failed unexpectedly.` } };
    }
  });

  const unsubscribe = core.onEvent((apiEvent) => {
    const window = getMainWindow();
    if (!window || window.isDestroyed() || window.webContents.isDestroyed()) return;
    // Events carry conversation text: they go only to the app's own page.
    if (!isAppUrl(page, window.webContents.getURL())) return;
    window.webContents.send(IPC_EVENT_CHANNEL, apiEvent);
  });

  return {
    dispose() {
      ipcMain.removeHandler(IPC_COMMAND_CHANNEL);
      unsubscribe();
    },
  };
}
