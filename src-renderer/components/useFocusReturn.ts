import { useEffect, useRef, type RefObject } from 'react';

/**
 * Hands focus back to the control that opened something once it has closed. It waits for the render that closes it:
 * until then the window behind a modal dialog is inert, and an inert control cannot take focus.
 */
export function useFocusReturn(open: boolean, triggerRef: RefObject<HTMLElement | null>): void {
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) triggerRef.current?.focus();
    wasOpen.current = open;
  }, [open, triggerRef]);
}
