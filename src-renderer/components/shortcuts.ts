import { BRAIN_IDS, BRAINS } from '../../src-shared/brains';

/** What a window-wide shortcut asks for. */
export type WindowCommand = 'new-conversation' | 'focus-search' | 'toggle-sidebar' | 'show-shortcuts';

type ShortcutKeys = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>;

interface WindowShortcut {
  readonly command: WindowCommand;
  /** The key with Ctrl (Cmd on Apple systems): a Latin letter, or '/'. */
  readonly key: string;
  readonly shift: boolean;
  readonly description: string;
}

/** The window-wide shortcuts, read by the key handler and listed by the shortcuts sheet. */
export const WINDOW_SHORTCUTS: readonly WindowShortcut[] = [
  { command: 'new-conversation', key: 'n', shift: false, description: 'New conversation' },
  { command: 'focus-search', key: 'k', shift: false, description: 'Search conversations and messages' },
  { command: 'toggle-sidebar', key: 's', shift: true, description: 'Show or hide the sidebar' },
  { command: 'show-shortcuts', key: '/', shift: false, description: 'Show these keyboard shortcuts' },
];

/**
 * The letter a press means: the character when it is a Latin letter, else the key's physical position, so that
 * Ctrl+N still means N on a Cyrillic or Greek layout while Dvorak and AZERTY users press the letter printed on the key.
 */
function letterOf(keys: ShortcutKeys): string | null {
  const key = keys.key.toLowerCase();
  if (/^[a-z]$/.test(key)) return key;
  const position = /^Key([A-Z])$/.exec(keys.code)?.[1];
  return position === undefined ? null : position.toLowerCase();
}

/** '/' by its character, or by its position for layouts where the character needs Shift (Ctrl+Shift+7 on German). */
function isSlash(keys: ShortcutKeys): boolean {
  return keys.key === '/' || keys.code === 'Slash';
}

/** Ctrl (Cmd on Apple systems) without the other one and without Alt, which types characters on many layouts. */
export function hasPrimaryModifier(keys: ShortcutKeys, apple: boolean): boolean {
  const primary = apple ? keys.metaKey && !keys.ctrlKey : keys.ctrlKey && !keys.metaKey;
  return primary && !keys.altKey;
}

/** The window command a key press asks for, or null for every other press. */
export function windowCommandOf(keys: ShortcutKeys, apple: boolean): WindowCommand | null {
  if (!hasPrimaryModifier(keys, apple)) return null;
  for (const shortcut of WINDOW_SHORTCUTS) {
    if (shortcut.key === '/') {
      // Shift is not checked: some layouts need it to type '/' at all.
      if (isSlash(keys)) return shortcut.command;
    } else if (keys.shiftKey === shortcut.shift && letterOf(keys) === shortcut.key) {
      return shortcut.command;
    }
  }
  return null;
}

/** One key, or a chord, as printed on the sheet: ["Ctrl", "Shift", "S"] or ["⌘", "⇧", "S"]. */
export type KeyLabel = readonly string[];

export interface ShortcutRow {
  /** One chord, or two: the first and last of a run (Ctrl+1 to Ctrl+7). */
  readonly keys: readonly KeyLabel[];
  readonly description: string;
}

export interface ShortcutSection {
  readonly title: string;
  readonly rows: readonly ShortcutRow[];
}

function chord(apple: boolean, shift: boolean, key: string): KeyLabel {
  const primary = apple ? '⌘' : 'Ctrl';
  const shiftLabel = apple ? '⇧' : 'Shift';
  return shift ? [primary, shiftLabel, key] : [primary, key];
}

/** Every shortcut the window has, grouped as the sheet shows them, with the platform's modifier names. */
export function shortcutSections(apple: boolean): readonly ShortcutSection[] {
  const lastDigit = String(BRAIN_IDS.length);
  return [
    {
      title: 'Window',
      rows: WINDOW_SHORTCUTS.map((shortcut) => ({
        keys: [chord(apple, shortcut.shift, shortcut.key.toUpperCase())],
        description: shortcut.description,
      })),
    },
    {
      title: 'Brains',
      rows: [
        {
          keys: [chord(apple, false, '1'), chord(apple, false, lastDigit)],
          description: `Pick a brain: ${BRAIN_IDS.map((brain) => BRAINS[brain].label).join(', ')}`,
        },
        { keys: [chord(apple, true, 'B')], description: 'Next brain' },
      ],
    },
    {
      title: 'Composer',
      rows: [
        { keys: [['Enter']], description: 'Send' },
        { keys: [[apple ? '⇧' : 'Shift', 'Enter']], description: 'New line' },
        { keys: [['↑']], description: 'Edit your last message (in an empty composer)' },
        { keys: [['Esc']], description: 'Stop a running reply' },
      ],
    },
    {
      title: 'Anywhere',
      rows: [
        { keys: [['Esc']], description: 'Close a dialog or the sidebar overlay' },
        { keys: [chord(apple, false, 'Z')], description: 'Undo deleting a conversation (outside a text field)' },
      ],
    },
  ];
}

/** The `aria-keyshortcuts` value of a window command. */
export function windowAriaShortcut(command: WindowCommand, apple: boolean): string {
  const shortcut = WINDOW_SHORTCUTS.find((entry) => entry.command === command);
  if (shortcut === undefined) return '';
  return [apple ? 'Meta' : 'Control', ...(shortcut.shift ? ['Shift'] : []), shortcut.key.toUpperCase()].join('+');
}

/** "Ctrl+Shift+S" or "⌘⇧S", for a title. */
export function windowShortcutLabel(command: WindowCommand, apple: boolean): string {
  const shortcut = WINDOW_SHORTCUTS.find((entry) => entry.command === command);
  if (shortcut === undefined) return '';
  return chord(apple, shortcut.shift, shortcut.key.toUpperCase()).join(apple ? '' : '+');
}
