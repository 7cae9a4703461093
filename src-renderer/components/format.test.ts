import { describe, expect, it } from 'vitest';
import { byteSizeText, durationText, prettyJson, prettyJsonText, usageSummary } from './format';
import { brainLabel, brainOptions } from './brain-options';

describe('usageSummary', () => {
  it('lists the non-zero counts', () => {
    expect(usageSummary({ inputTokens: 1204, outputTokens: 356, cacheReadTokens: 0 })).toBe('1,204 in · 356 out tokens');
    expect(usageSummary({ inputTokens: 10, outputTokens: 2, cacheReadTokens: 8, reasoningTokens: 5 })).toBe(
      '10 in · 2 out · 8 cached · 5 reasoning tokens',
    );
  });

  it('says nothing when nothing was counted', () => {
    expect(usageSummary(null)).toBeNull();
    expect(usageSummary({})).toBeNull();
  });
});

describe('brainOptions', () => {
  it('lists all seven brains from the static table before settings load', () => {
    expect(brainOptions(null).map((option) => [option.id, option.label, option.available])).toEqual([
      ['claude', 'Claude', true],
      ['codex', 'Codex', true],
      ['kimi', 'Kimi', true],
      ['grok', 'Grok', true],
      ['glm', 'GLM', true],
      ['gemini', 'Gemini', true],
      ['ollama', 'Ollama', true],
    ]);
  });

  it('labels a message without a brain as the assistant', () => {
    expect(brainLabel(null)).toBe('Assistant');
    expect(brainLabel('kimi')).toBe('Kimi');
  });
});

describe('durationText', () => {
  it('reads the time between start and end', () => {
    expect(durationText('2026-01-01T10:00:00.000Z', '2026-01-01T10:00:00.250Z')).toBe('250 ms');
    expect(durationText('2026-01-01T10:00:00.000Z', '2026-01-01T10:00:04.240Z')).toBe('4.2 s');
    expect(durationText('2026-01-01T10:00:00.000Z', '2026-01-01T10:00:42.000Z')).toBe('42 s');
    expect(durationText('2026-01-01T10:00:00.000Z', '2026-01-01T10:02:05.000Z')).toBe('2 min 5 s');
  });

  it('says nothing for an unknown end or unreadable times', () => {
    expect(durationText('2026-01-01T10:00:00.000Z', null)).toBeNull();
    expect(durationText('yesterday', '2026-01-01T10:00:00.000Z')).toBeNull();
    expect(durationText('2026-01-01T10:00:01.000Z', '2026-01-01T10:00:00.000Z')).toBeNull();
  });
});

describe('prettyJson and prettyJsonText', () => {
  it('indents values and JSON documents for reading', () => {
    expect(prettyJson({ path: 'a.txt', lines: [1, 2] })).toBe('{\n  "path": "a.txt",\n  "lines": [\n    1,\n    2\n  ]\n}');
    expect(prettyJson(undefined)).toBe('No input');
    expect(prettyJsonText('{"model":"kimi-k2.6","stream":true}')).toBe('{\n  "model": "kimi-k2.6",\n  "stream": true\n}');
  });

  it('leaves text that is not JSON as it is', () => {
    expect(prettyJsonText('not json {')).toBe('not json {');
  });
});

describe('byteSizeText', () => {
  it('names bytes, kilobytes and megabytes as a file manager would', () => {
    expect([0, 1, 1023, 1024, 12_800, 1024 * 1024, 3.45 * 1024 * 1024, 10 * 1024 * 1024, 20.4 * 1024 * 1024].map(byteSizeText)).toEqual([
      '0 bytes', '1 byte', '1023 bytes', '1 KB', '13 KB', '1 MB', '3.5 MB', '10 MB', '20 MB',
    ]);
  });
});
