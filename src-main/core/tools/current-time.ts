import type { ToolDefinition } from './catalogue';

function offsetOf(date: Date, timeZone: string): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(date)
    .find((entry) => entry.type === 'timeZoneName')?.value;
  const match = /GMT([+-]\d{2}:\d{2})?/.exec(part ?? '');
  return match?.[1] ?? '+00:00';
}

/** ISO 8601 local time in a time zone, with its offset: 2026-11-30T20:00:00+09:00. */
export function formatInZone(date: Date, timeZone: string): string {
  const fields = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((entry) => [entry.type, entry.value]),
  );
  return `${fields.year}-${fields.month}-${fields.day}T${fields.hour}:${fields.minute}:${fields.second}${offsetOf(date, timeZone)}`;
}

export const currentTimeTool: ToolDefinition = {
  name: 'current_time',
  description: 'The current date and time, in ISO 8601 with offset. Optionally in an IANA time zone such as "Asia/Seoul".',
  inputSchema: {
    type: 'object',
    properties: { zone: { type: 'string', description: 'IANA time zone, e.g. "Europe/Paris". Default: UTC.' } },
    additionalProperties: false,
  },
  server: null,
  async execute(input, context) {
    const zone = typeof input.zone === 'string' && input.zone.trim() !== '' ? input.zone.trim() : 'UTC';
    try {
      return { output: `${formatInZone(context.now(), zone)} (${zone})`, isError: false };
    } catch {
      return { output: `Unknown time zone "${zone}". Use an IANA name such as "Asia/Seoul" or "UTC".`, isError: true };
    }
  },
};
