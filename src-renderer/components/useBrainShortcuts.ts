import { useEffect } from 'react';
import { switchConversationBrain, switchToNextBrain } from '../state/brain-actions';
import { useAppStore } from '../state/store';
import { brainShortcutOf, isApplePlatform } from './brain-shortcuts';

/** Ctrl/Cmd+1…7 and Ctrl/Cmd+Shift+B switch the conversation's brain from anywhere in the window, the composer included. */
export function useBrainShortcuts(conversationId: string): void {
  useEffect(() => {
    const apple = isApplePlatform();
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.isComposing) return;
      const shortcut = brainShortcutOf(event, apple);
      if (shortcut === null || useAppStore.getState().settingsOpen) return;
      // Browsers switch tabs on Ctrl+digit otherwise.
      event.preventDefault();
      if (event.repeat) return;
      if (shortcut.kind === 'next') void switchToNextBrain(conversationId);
      else void switchConversationBrain(conversationId, shortcut.brain);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [conversationId]);
}
