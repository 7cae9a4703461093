import { describe, expect, it } from 'vitest';
import { currentTimeTool, formatInZone } from './current-time';

const context = { signal: new AbortController().signal, now: () => new Date('2026-11-30T11:00:00.000Z') };

describe('current_time', () => {
  it('formats local time with its offset', () => {
    expect(formatInZone(new Date('2026-11-30T11:00:00.000Z'), 'Asia/Seoul')).toBe('2026-11-30T20:00:00+09:00');
    expect(formatInZone(new Date('2026-07-01T11:00:00.000Z'), 'America/New_York')).toBe('2026-07-01T07:00:00-04:00');
    expect(formatInZone(new Date('2026-11-30T11:00:00.000Z'), 'UTC')).toBe('2026-11-30T11:00:00+00:00');
  });
  it('answers in UTC by default and in the zone asked for', async () => {
    expect(await currentTimeTool.execute({}, context)).toEqual({ output: '2026-11-30T11:00:00+00:00 (UTC)', isError: false });
    expect(await currentTimeTool.execute({ zone: 'Asia/Kolkata' }, context)).toEqual({ output: '2026-11-30T16:30:00+05:30 (Asia/Kolkata)', isError: false });
  });
  it('explains an unknown zone as a tool error', async () => {
    expect(await currentTimeTool.execute({ zone: 'Mars/Olympus' }, context)).toEqual({
      output: 'Unknown time zone "Mars/Olympus". Use an IANA name such as "Asia/Seoul" or "UTC".',
      isError: true,
    });
  });
});
