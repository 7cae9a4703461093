/**
 * Server-Sent Events framing (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
 * the providers' streams and the fake brains both speak it.
 */

export interface ServerSentEvent {
  /** The `event:` field, or null when the message had none (Chat Completions and Gemini send none). */
  readonly event: string | null;
  /** The `data:` lines joined with `\n`. */
  readonly data: string;
}

/** Splits a complete event stream into its messages. */
export function parseServerSentEvents(text: string): ServerSentEvent[] {
  const parser = new ServerSentEventParser();
  return [...parser.push(text), ...parser.finish()];
}

/** Reads messages from a byte stream as they arrive (a `fetch` body, an HTTP response). */
export async function* readServerSentEvents(chunks: AsyncIterable<Uint8Array>): AsyncIterable<ServerSentEvent> {
  const decoder = new TextDecoder();
  const parser = new ServerSentEventParser();
  for await (const chunk of chunks) {
    yield* parser.push(decoder.decode(chunk, { stream: true }));
  }
  yield* parser.push(decoder.decode());
  yield* parser.finish();
}

/** Formats one message the way the providers frame theirs: optional `event:` line, one `data:` line, blank line. */
export function formatServerSentEvent(data: string, event?: string): string {
  const eventLine = event === undefined ? '' : `event: ${event}\n`;
  const dataLines = data
    .split('\n')
    .map((line) => `data: ${line}\n`)
    .join('');
  return `${eventLine}${dataLines}\n`;
}

class ServerSentEventParser {
  private pending = '';
  private eventName: string | null = null;
  private dataLines: string[] = [];

  push(text: string): ServerSentEvent[] {
    this.pending += text;
    const messages: ServerSentEvent[] = [];
    for (;;) {
      const lineEnd = this.pending.search(/\r\n|\r|\n/);
      if (lineEnd < 0) break;
      // A lone `\r` at the end of a chunk may be the first half of `\r\n`: wait for the next chunk.
      if (this.pending[lineEnd] === '\r' && lineEnd === this.pending.length - 1) break;
      const line = this.pending.slice(0, lineEnd);
      const separatorLength = this.pending.startsWith('\r\n', lineEnd) ? 2 : 1;
      this.pending = this.pending.slice(lineEnd + separatorLength);
      const message = this.takeLine(line);
      if (message !== null) messages.push(message);
    }
    return messages;
  }

  /** The spec drops a message that is not followed by a blank line; streams cut short end that way. */
  finish(): ServerSentEvent[] {
    this.pending = '';
    this.eventName = null;
    this.dataLines = [];
    return [];
  }

  private takeLine(line: string): ServerSentEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventName = value;
    else if (field === 'data') this.dataLines.push(value);
    return null;
  }

  private dispatch(): ServerSentEvent | null {
    const message = this.dataLines.length > 0 ? { event: this.eventName, data: this.dataLines.join('\n') } : null;
    this.eventName = null;
    this.dataLines = [];
    return message;
  }
}
