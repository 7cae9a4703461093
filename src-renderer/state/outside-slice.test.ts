import { describe, expect, it } from 'vitest';
import type { NotAnsweringView } from '../../src-shared/api';
import { applyNotAnswering, dismissNotAnswering, initialOutsideSlice, shownNotAnswering } from './outside-slice';

const keychain: NotAnsweringView = {
  key: 'keychain',
  kind: 'keychain',
  subject: 'the system keychain',
  message: 'The system keychain is not answering; using the keys from the environment.',
  since: '2026-12-04T10:00:00.000Z',
};
const files: NotAnsweringView = { key: 'mcp:files', kind: 'mcp-server', subject: 'the MCP server “Files”', message: 'First words.', since: '2026-12-04T10:00:01.000Z' };

describe('what is not answering, in the window', () => {
  it('shows each report until it is dismissed or answered, and shows it again when its message changes', () => {
    let state = applyNotAnswering(initialOutsideSlice, [keychain, files]);
    expect(shownNotAnswering(state).map((entry) => entry.key)).toEqual(['keychain', 'mcp:files']);
    state = { ...state, ...dismissNotAnswering(state, files) };
    expect(shownNotAnswering(state).map((entry) => entry.key)).toEqual(['keychain']);
    state = applyNotAnswering(state, [keychain, { ...files, message: 'Later words.' }]);
    expect(shownNotAnswering(state).map((entry) => entry.message)).toEqual([keychain.message, 'Later words.']);
    state = { ...state, ...dismissNotAnswering(state, keychain) };
    state = applyNotAnswering(state, [{ ...files, message: 'Later words.' }]);
    expect(state.dismissedNotAnswering).toEqual([]);
    state = applyNotAnswering(state, [keychain]);
    expect(shownNotAnswering(state)).toEqual([keychain]);
  });
});
