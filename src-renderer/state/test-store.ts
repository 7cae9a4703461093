import type { MessageView } from '../../src-shared/api';
import type { FrameScheduler } from './delta-buffer';
import { openConversationState } from './messages-slice';
import { useAppStore } from './store';

/** Opens conversation c1 with these messages, as the window holds it once its first page is in. */
export function loadOpenConversation(...messages: MessageView[]): void {
  useAppStore.setState({
    ...openConversationState('c1'),
    pageStatus: 'ready',
    messagesById: Object.fromEntries(messages.map((message) => [message.id, message])),
    messageIds: messages.map((message) => message.id),
  });
}

export interface ManualFrames {
  /** The scheduler to give the delta buffer (`resetDeltaBuffer`): it only keeps what a frame would run. */
  readonly schedule: FrameScheduler;
  /** Runs the frames asked for so far. */
  readonly runFrame: () => void;
  /** How many frames are asked for and not yet run. */
  readonly requested: () => number;
}

/** Frames that come only when the test runs them. */
export function manualFrames(): ManualFrames {
  let requested: (() => void)[] = [];
  return {
    schedule: (callback) => {
      requested.push(callback);
    },
    runFrame: () => {
      const due = requested;
      requested = [];
      for (const callback of due) callback();
    },
    requested: () => requested.length,
  };
}
