import { BRAIN_IDS, type BrainId } from '../../src-shared/brains';
import { hasPrimaryModifier } from './shortcuts';

/** What a key press asks of the brain switch: one brain, the next brain, or nothing. */
export type BrainShortcut = { readonly kind: 'select'; readonly brain: BrainId } | { readonly kind: 'next' } | null;

type ShortcutKeys = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>;

interface PlatformNavigator {
  readonly platform?: string;
  readonly userAgentData?: { readonly platform?: string };
}

/** macOS and iOS use Cmd where other systems use Ctrl. */
export function isApplePlatform(navigatorLike: PlatformNavigator = navigator): boolean {
  const platform = navigatorLike.userAgentData?.platform ?? navigatorLike.platform ?? '';
  return /mac|iphone|ipad|ipod/i.test(platform);
}

/** The digit keys by physical position, so layouts that need Shift for digits (AZERTY) work too. */
const DIGIT_CODES = BRAIN_IDS.map((_brain, index) => [`Digit${index + 1}`, `Numpad${index + 1}`]);

/** Ctrl+1…Ctrl+7 (Cmd on Apple systems) pick brains in table order; Ctrl/Cmd+Shift+B moves to the next brain. */
export function brainShortcutOf(keys: ShortcutKeys, apple: boolean): BrainShortcut {
  if (!hasPrimaryModifier(keys, apple)) return null;
  if (keys.shiftKey && (keys.key.toLowerCase() === 'b' || keys.code === 'KeyB')) return { kind: 'next' };
  const index = DIGIT_CODES.findIndex((codes) => codes.includes(keys.code));
  const brain = BRAIN_IDS[index];
  return brain === undefined ? null : { kind: 'select', brain };
}

/** "Ctrl+3", or "⌘3" on Apple systems. */
export function brainShortcutLabel(brain: BrainId, apple: boolean): string {
  const digit = BRAIN_IDS.indexOf(brain) + 1;
  return apple ? `⌘${digit}` : `Ctrl+${digit}`;
}

export function nextBrainShortcutLabel(apple: boolean): string {
  return apple ? '⌘⇧B' : 'Ctrl+Shift+B';
}

/** The `aria-keyshortcuts` value of a brain's shortcut. */
export function brainAriaShortcut(brain: BrainId, apple: boolean): string {
  return `${apple ? 'Meta' : 'Control'}+${BRAIN_IDS.indexOf(brain) + 1}`;
}
