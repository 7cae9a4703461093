import { describe, expect, it } from 'vitest';
import { baseUrlProblem, hostOf, INSECURE_BASE_URL_RULE, isLoopbackHostname, originOf } from './base-url';

describe('baseUrlProblem', () => {
  it('accepts https anywhere and http only on this computer', () => {
    expect(
      [
        'https://api.moonshot.ai/v1',
        'https://llm.example.com:8443',
        'http://127.0.0.1:9/v1',
        'http://127.254.0.1',
        'http://localhost:11434',
        'http://models.localhost',
        'http://[::1]:8080/v1',
      ].map(baseUrlProblem),
    ).toEqual([null, null, null, null, null, null, null]);
  });

  it('refuses http to any other host, and anything that is not http', () => {
    expect(
      ['http://llm.example.com/v1', 'http://192.168.1.10:8080', 'http://128.0.0.1', 'http://127.0.0.1.example.com', 'http://[::2]', 'file:///etc/passwd', 'ftp://x'].map(
        baseUrlProblem,
      ),
    ).toEqual(Array(7).fill(INSECURE_BASE_URL_RULE));
    expect(baseUrlProblem('not a url')).toBe('The base URL is not a URL.');
  });
});

describe('loopback, origins and hosts', () => {
  it('knows loopback names and addresses', () => {
    expect(['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '[::1]'].map(isLoopbackHostname)).toEqual([true, true, true, true, true]);
    expect(['127.0.0.256', '10.0.0.1', 'localhost.example.com', '0.0.0.0'].map(isLoopbackHostname)).toEqual([false, false, false, false]);
  });

  it('gives the origin and the host with its port', () => {
    expect(originOf('https://api.moonshot.ai/v1')).toBe('https://api.moonshot.ai');
    expect(originOf('http://127.0.0.1:8080/v1/')).toBe('http://127.0.0.1:8080');
    expect(originOf('nope')).toBeNull();
    expect(hostOf('http://127.0.0.1:8080/v1')).toBe('127.0.0.1:8080');
    expect(hostOf('https://api.moonshot.ai/v1')).toBe('api.moonshot.ai');
  });
});
