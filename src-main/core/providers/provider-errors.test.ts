import { describe, expect, it } from 'vitest';
import { classifyProviderFailure, formatSeconds, retryAfterSecondsFrom } from './provider-errors';

const NOW = Date.parse('2026-12-01T12:00:00.000Z');

describe('retryAfterSecondsFrom', () => {
  it.each([
    [{ 'retry-after': '20' }, 20],
    [{ 'retry-after': ' 7 ' }, 7],
    [{ 'retry-after': '0' }, 0],
    [{ 'retry-after': '2.5' }, 2.5],
    // RFC 9110 HTTP date, 45 s after NOW.
    [{ 'retry-after': 'Tue, 01 Dec 2026 12:00:45 GMT' }, 45],
    // A date already past asks for no wait.
    [{ 'retry-after': 'Tue, 01 Dec 2026 11:59:00 GMT' }, 0],
    // OpenAI's retry-after-ms wins over the coarser retry-after.
    [{ 'retry-after-ms': '1500', 'retry-after': '2' }, 1.5],
    [{ 'retry-after-ms': 'soon', 'retry-after': '2' }, 2],
    [{ 'retry-after': 'soon' }, null],
    [{ 'retry-after': '-3' }, null],
    [{}, null],
  ])('%j gives %j', (headers, seconds) => {
    expect(retryAfterSecondsFrom(new Headers(headers), NOW)).toBe(seconds);
  });

  it('gives null without headers', () => {
    expect(retryAfterSecondsFrom(undefined, NOW)).toBeNull();
  });
});

describe('formatSeconds', () => {
  it.each([
    [90, '90'],
    [0.2, '0.2'],
    [1.5, '1.5'],
    [1.26, '1.3'],
  ])('%d reads %s', (seconds, text) => {
    expect(formatSeconds(seconds)).toBe(text);
  });
});

describe('classifyProviderFailure with a requested wait', () => {
  it('names the wait and carries it as a number', () => {
    expect(classifyProviderFailure({ status: 529, type: 'overloaded_error', message: 'Overloaded', retryAfterSeconds: 30 })).toEqual({
      code: 'overloaded',
      message: 'The provider is overloaded (HTTP 529); the provider asks to wait 30 s: Overloaded',
      status: 529,
      retryable: true,
      retryAfterSeconds: 30,
    });
  });

  it('leaves the message and the error as they were without one', () => {
    expect(classifyProviderFailure({ status: 429, message: 'Slow down', retryAfterSeconds: null })).toEqual({
      code: 'rate-limited',
      message: 'The provider is rate-limiting requests (HTTP 429): Slow down',
      status: 429,
      retryable: true,
    });
  });
});
