/**
 * What a person needs to know about a brain before the first turn: is it set up, and where its key comes from
 * (never the key itself).
 */
import type { BrainSettingsView } from '../../src-shared/api';
import { hostOf } from '../../src-shared/base-url';
import { BRAINS } from '../../src-shared/brains';

/** Ready for a turn as far as the app can tell without calling it: a key present, or a keyless brain pointed at a server. */
export function isConfigured(brain: BrainSettingsView): boolean {
  switch (brain.keySource) {
    case 'stored':
    case 'environment':
      return true;
    case 'none':
      return false;
    case 'not-needed':
      // Ollama's default is this computer's port 11434: set up only once the user (or the environment) named a server.
      return brain.baseUrl !== BRAINS[brain.brain].defaultBaseUrl;
    default: {
      const _unknown: never = brain.keySource;
      return false;
    }
  }
}

/** One short line: where the key comes from, or what is missing. */
export function brainStateText(brain: BrainSettingsView): string {
  const variable = BRAINS[brain.brain].keyVariable;
  switch (brain.keySource) {
    case 'stored':
      // Stored keys are sealed by the system keychain (Electron's safeStorage).
      return 'Key saved in the system keychain';
    case 'environment':
      return variable === null ? 'Key from the environment' : `Key from ${variable}`;
    case 'none':
      return 'Not set up: no key';
    case 'not-needed':
      return isConfigured(brain) ? `No key needed · server at ${hostOf(brain.baseUrl)}` : `No key needed · expects a server at ${hostOf(brain.baseUrl)}`;
    default: {
      const _unknown: never = brain.keySource;
      return '';
    }
  }
}
