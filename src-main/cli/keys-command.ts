/**
 * `anybrain keys set BRAIN` (the key from standard input, never from the command line, where other users' `ps` and
 * the shell's history would see it), `anybrain keys list` (where each brain's key comes from, never the key) and
 * `anybrain keys remove BRAIN`, through the Api's settings commands like the window's Settings.
 */
import type { BrainSettingsView, SettingsView } from '../../src-shared/api';
import { BRAINS, type BrainId } from '../../src-shared/brains';
import type { Core } from '../core/core-types';
import { call, type Output } from './commands';

/** What a brain's key row says in `keys list`. */
export function keySourceText(brain: BrainSettingsView, settings: SettingsView): string {
  const variable = BRAINS[brain.brain].keyVariable;
  switch (brain.keySource) {
    case 'stored':
      return `stored in ${settings.keyStorage.place ?? 'the key store'}`;
    case 'environment':
      return `from ${variable ?? 'the environment'}`;
    case 'none':
      if (variable === null) return 'no key';
      // A key may be stored there; it cannot be read now.
      if (!settings.keyStorage.answering) return `no key in use (the keychain is not answering; or set ${variable})`;
      return `no key (store one with: anybrain keys set ${brain.brain}, or set ${variable})`;
    case 'not-needed':
      return 'needs no key';
    default: {
      const unknown: never = brain.keySource;
      return String(unknown);
    }
  }
}

export async function keysListCommand(core: Core, output: Output): Promise<number> {
  const settings = await call(core, 'getSettings', {});
  const width = Math.max(...settings.brains.map((brain) => brain.brain.length));
  for (const brain of settings.brains) output.stdout(`${brain.brain.padEnd(width)}  ${keySourceText(brain, settings)}\n`);
  const { answering, refusal } = settings.keyStorage;
  if (refusal !== null) output.stderr(answering ? `Keys cannot be stored here: ${refusal}.\n` : `${refusal[0]!.toUpperCase()}${refusal.slice(1)}.\n`);
  return 0;
}

/** The key as read from standard input: surrounding whitespace and the line break a paste or `echo` adds go. */
export function keyFromInput(input: string): string {
  return input.trim();
}

export async function keysSetCommand(core: Core, output: Output, brain: BrainId, input: string): Promise<number> {
  const variable = BRAINS[brain].keyVariable;
  if (variable === null) {
    output.stderr(`${BRAINS[brain].label} needs no key.\n`);
    return 1;
  }
  const key = keyFromInput(input);
  if (key === '') {
    output.stderr(`No key was given. Pipe it in, e.g.: anybrain keys set ${brain} < key.txt\n`);
    return 1;
  }
  if (/\s/.test(key)) {
    output.stderr('The key holds spaces or line breaks; an API key has none. Nothing was stored.\n');
    return 1;
  }
  const settings = await call(core, 'setKey', { brain, key });
  output.stderr(`Stored the ${BRAINS[brain].label} key in ${settings.keyStorage.place ?? 'the key store'}.\n`);
  return 0;
}

export async function keysRemoveCommand(core: Core, output: Output, brain: BrainId): Promise<number> {
  const before = await call(core, 'getSettings', {});
  if (before.brains.find((row) => row.brain === brain)?.keySource !== 'stored') {
    output.stderr(`No ${BRAINS[brain].label} key is stored; nothing was removed.\n`);
    return 0;
  }
  await call(core, 'setKey', { brain, key: null });
  output.stderr(`Removed the ${BRAINS[brain].label} key.\n`);
  return 0;
}
