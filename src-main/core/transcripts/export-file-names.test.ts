import { describe, expect, it } from 'vitest';
import { exportFileNames, isPlainFileName, shortId, titleSlug } from './export-file-names';

describe('file names of an export of many conversations', () => {
  it('keep the words of a title in any script, and nothing a path or Windows could misread', () => {
    expect(titleSlug('../etc')).toBe('etc');
    expect(titleSlug('..\\..\\Windows\\System32')).toBe('Windows-System32');
    expect(titleSlug('a/b\\c:d*e?f"g<h>i|j')).toBe('a-b-c-d-e-f-g-h-i-j');
    expect(titleSlug('🎉 Party plans 🎉')).toBe('Party-plans');
    expect(titleSlug('한국어 대화 정리')).toBe('한국어-대화-정리');
    expect(titleSlug('tab\there\u0000nul\u202eoverride')).toBe('tab-here-nul-override');
    expect(titleSlug('...')).toBe('conversation');
    expect(titleSlug('')).toBe('conversation');
    expect(titleSlug('🎉🎉')).toBe('conversation');
  });

  it('cut a long title to sixty characters, or fewer when they are wide, never inside a character', () => {
    expect(titleSlug('x'.repeat(200))).toBe('x'.repeat(60));
    // Hangul syllables are three bytes each in UTF-8: 150 bytes hold fifty.
    expect(titleSlug('가'.repeat(200))).toBe('가'.repeat(50));
    // A letter with a combining accent is one character and stays whole.
    expect(titleSlug('e\u0301'.repeat(100))).toBe('é'.repeat(60));
    expect(titleSlug(`${'word '.repeat(12)}end`)).toBe('word-word-word-word-word-word-word-word-word-word-word-word');
  });

  it('take the random end of an id, in lower case', () => {
    expect(shortId('01JEXPORT00000000000000042')).toBe('00000042');
    expect(shortId('01JD8X2KQW3V5Y7Z9A1B2C3D4E')).toBe('1b2c3d4e');
    expect(shortId('a-b')).toBe('ab');
    expect(shortId('--')).toBe('');
  });

  it('are unique, even where case and Unicode normalisation are ignored, and avoid Windows device names', () => {
    const conversations = [
      { id: '01JEXPORT00000000000000001', title: '../etc' },
      { id: '01JEXPORT00000000000000002', title: 'CON' },
      { id: 'aux', title: '' },
      { id: '--', title: 'LPT1' },
      { id: '--', title: 'COM¹' },
      { id: '01JEXPORT00000000000000003', title: 'Same title' },
      { id: '01JEXPORT00000000000000004', title: 'Same title' },
      { id: 'X1', title: 'Café' },
      { id: 'x1', title: 'Cafe\u0301' },
      { id: 'X1', title: 'CAFÉ' },
      { id: '--', title: 'index' },
    ];
    expect(exportFileNames(conversations, 'md')).toEqual([
      'etc-00000001.md',
      'CON-00000002.md',
      'conversation-aux.md',
      'LPT1-conversation.md',
      'COM¹-conversation.md',
      'Same-title-00000003.md',
      'Same-title-00000004.md',
      'Café-x1.md',
      'Café-x1-2.md',
      'CAFÉ-x1-3.md',
      'index.md',
    ]);
    expect(exportFileNames([{ id: '--', title: 'index' }], 'json')).toEqual(['index-2.json']);
    expect(exportFileNames([{ id: '--', title: 'NUL' }], 'html')).toEqual(['NUL-conversation.html']);
  });

  it('are all plain names inside the folder', () => {
    const names = exportFileNames([{ id: '01JEXPORT00000000000000001', title: '../../.ssh/authorized_keys' }], 'json');
    expect(names).toEqual(['ssh-authorized-keys-00000001.json']);
    expect(names.every(isPlainFileName)).toBe(true);
    expect(['../x', 'a/b', 'a\\b', '.hidden', 'C:x', '', 'nul\u0000'].filter(isPlainFileName)).toEqual([]);
  });
});
