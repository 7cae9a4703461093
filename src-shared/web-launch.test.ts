import { describe, expect, it } from 'vitest';
import { bearerHeaderValue, tokenFromLaunchFragment, webLaunchUrl } from './web-launch';

const token = 'Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF';

describe('web launch address', () => {
  it('puts the token in the fragment, which browsers never send to a server', () => {
    expect(webLaunchUrl('http://127.0.0.1:47100', token)).toBe(`http://127.0.0.1:47100/#token=${token}`);
  });

  it('reads the token back from location.hash, and nothing from any other fragment', () => {
    expect(tokenFromLaunchFragment(new URL(webLaunchUrl('http://127.0.0.1:47100', token)).hash)).toBe(token);
    expect(tokenFromLaunchFragment('')).toBeNull();
    expect(tokenFromLaunchFragment('#/c/01JCONVERSATION')).toBeNull();
    expect(tokenFromLaunchFragment('#token=')).toBeNull();
    expect(tokenFromLaunchFragment('#token=short')).toBeNull();
    expect(tokenFromLaunchFragment(`#token=${token}&x=1`)).toBeNull();
    expect(tokenFromLaunchFragment(`#token=${token}<script>`)).toBeNull();
  });

  it('writes the bearer header value', () => {
    expect(bearerHeaderValue(token)).toBe(`Bearer ${token}`);
  });
});
