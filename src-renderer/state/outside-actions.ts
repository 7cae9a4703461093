import { api } from './api-client';
import { applyNotAnswering } from './outside-slice';
import { useAppStore } from './store';

let notAnsweringRequest = 0;

/** Fetches what is not answering: at start-up, and after a reconnect may have lost its events. */
export async function loadNotAnswering(): Promise<void> {
  const request = ++notAnsweringRequest;
  try {
    const list = await api().listNotAnswering({});
    if (request === notAnsweringRequest) useAppStore.setState((state) => applyNotAnswering(state, list));
  } catch {
    // An older host without the command, or a dropped connection: the next event or resync says it again.
  }
}
