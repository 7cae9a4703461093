import { describe, expect, it } from 'vitest';
import { isSameModel } from './same-model';

describe('isSameModel', () => {
  it('accepts the same id and dated snapshots of it', () => {
    expect(isSameModel('kimi-k2.6', 'kimi-k2.6')).toBe(true);
    expect(isSameModel('claude-sonnet-4-6', 'claude-sonnet-4-6-20260215')).toBe(true);
    expect(isSameModel('gpt-5.5', 'gpt-5.5-2026-08-01')).toBe(true);
    expect(isSameModel('kimi-k2', 'kimi-k2-0905')).toBe(true);
  });
  it('flags a different model', () => {
    expect(isSameModel('claude-opus-4-6', 'claude-sonnet-4-6')).toBe(false);
    expect(isSameModel('gpt-5.5', 'gpt-5.5-mini')).toBe(false);
    expect(isSameModel('kimi-k2.6', 'kimi-k2.5')).toBe(false);
  });
});
