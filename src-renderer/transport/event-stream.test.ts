import { describe, expect, it } from 'vitest';
import { EventStreamParser } from './event-stream';

describe('event stream parser', () => {
  it('returns the data of each completed event and skips retry, comments and other fields', () => {
    const parser = new EventStreamParser();
    expect(parser.push('retry: 1000\n\ndata: {"a":1}\n\n: heartbeat\n\nevent: x\nid: 7\ndata:{"b":2}\n\n')).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('joins multi-line data with newlines and keeps a second leading space', () => {
    const parser = new EventStreamParser();
    expect(parser.push('data: one\ndata:  two\ndata\n\n')).toEqual(['one\n two\n']);
  });

  it('completes events split anywhere across chunks, CRLF split included', () => {
    const parser = new EventStreamParser();
    const chunks = ['da', 'ta: {"x"', ':1}\r', '\n\r', '\n', 'data: y\r\r', '\ndata: z\n', '\n'];
    expect(chunks.map((chunk) => parser.push(chunk))).toEqual([[], [], [], ['{"x":1}'], [], ['y'], [], ['z']]);
  });

  it('holds an event until its blank line arrives', () => {
    const parser = new EventStreamParser();
    expect(parser.push('data: late\n')).toEqual([]);
    expect(parser.push('\n')).toEqual(['late']);
  });
});
