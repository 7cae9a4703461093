import { describe, expect, it } from 'vitest';
import { formatServerSentEvent, parseServerSentEvents, readServerSentEvents } from './sse';

async function* bytesIn(pieces: readonly string[]): AsyncIterable<Uint8Array> {
  const encoder = new TextEncoder();
  for (const piece of pieces) yield encoder.encode(piece);
}

describe('server-sent events', () => {
  it('parses named events, unnamed data lines, comments and multi-line data', () => {
    const text = 'event: ping\ndata: {"type": "ping"}\n\n: keep-alive\n\ndata: {"a":1}\n\ndata: first\ndata: second\n\n';
    expect(parseServerSentEvents(text)).toEqual([
      { event: 'ping', data: '{"type": "ping"}' },
      { event: null, data: '{"a":1}' },
      { event: null, data: 'first\nsecond' },
    ]);
  });

  it('accepts CRLF framing and drops a message cut off before its blank line', () => {
    expect(parseServerSentEvents('data: {"x":1}\r\n\r\ndata: {"x":2}\r\n')).toEqual([{ event: null, data: '{"x":1}' }]);
  });

  it('reads messages split anywhere across chunks, a multi-byte character and a CRLF included', async () => {
    const pieces = ['event: message_st', 'art\ndata: {"t":"caf', '\u00e9"}\r', '\n\r\ndata: [DONE]\n', '\n'];
    const messages = [];
    for await (const message of readServerSentEvents(bytesIn(pieces))) messages.push(message);
    expect(messages).toEqual([
      { event: 'message_start', data: '{"t":"café"}' },
      { event: null, data: '[DONE]' },
    ]);
  });

  it('formats the way providers frame their streams', () => {
    expect(formatServerSentEvent('{"type":"message_stop"}', 'message_stop')).toBe('event: message_stop\ndata: {"type":"message_stop"}\n\n');
    expect(formatServerSentEvent('[DONE]')).toBe('data: [DONE]\n\n');
  });
});
