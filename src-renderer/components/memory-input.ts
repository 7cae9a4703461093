import type { KeyboardEvent } from 'react';

/** The longest memory text the store takes (the `addMemory` and `updateMemory` schemas' `max`). */
export const MAX_MEMORY_LENGTH = 4000;

/** Enter submits; Shift+Enter and an IME's Enter do not. */
export function isSubmitKey(event: KeyboardEvent<HTMLTextAreaElement>): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing;
}
