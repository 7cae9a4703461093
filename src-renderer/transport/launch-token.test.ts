import { describe, expect, it } from 'vitest';
import { takeLaunchToken, type LaunchTokenPlace } from './launch-token';

const token = 'Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF';

function place(hash: string, stored: Record<string, string> = {}) {
  const replaced: unknown[][] = [];
  const storage = new Map(Object.entries(stored));
  const value: LaunchTokenPlace = {
    location: { hash, pathname: '/', search: '' },
    history: { state: { kept: true }, replaceState: (...args: unknown[]) => void replaced.push(args) },
    storage: { getItem: (key) => storage.get(key) ?? null, setItem: (key, item) => void storage.set(key, item) },
  };
  return { value, replaced, storage };
}

describe('launch token', () => {
  it('takes the token from the launch fragment, removes it from the address bar and keeps it for reloads', () => {
    const { value, replaced, storage } = place(`#token=${token}`);
    expect(takeLaunchToken(value)).toBe(token);
    expect(replaced).toEqual([[{ kept: true }, '', '/']]);
    expect([...storage]).toEqual([['anybrain.webToken', token]]);
  });

  it('prefers a new launch address over the token a previous launch left in this tab', () => {
    const { value } = place(`#token=${token}`, { 'anybrain.webToken': 'b'.repeat(43) });
    expect(takeLaunchToken(value)).toBe(token);
  });

  it("after a reload reads the tab's kept token and leaves a conversation address alone", () => {
    const { value, replaced } = place('#/c/01JCONVERSATION', { 'anybrain.webToken': token });
    expect(takeLaunchToken(value)).toBe(token);
    expect(replaced).toEqual([]);
  });

  it('has no token without a launch address or a kept one', () => {
    expect(takeLaunchToken(place('').value)).toBeNull();
  });

  it('still hands over the launch token when the browser refuses storage', () => {
    const { value, replaced } = place(`#token=${token}`);
    const refusing: LaunchTokenPlace = {
      ...value,
      storage: {
        getItem: () => {
          throw new Error('SecurityError');
        },
        setItem: () => {
          throw new Error('QuotaExceededError');
        },
      },
    };
    expect(takeLaunchToken(refusing)).toBe(token);
    expect(replaced).toHaveLength(1);
    expect(takeLaunchToken({ ...refusing, location: { hash: '', pathname: '/', search: '' } })).toBeNull();
    expect(takeLaunchToken({ ...value, storage: null, location: { hash: '', pathname: '/', search: '' } })).toBeNull();
  });
});
