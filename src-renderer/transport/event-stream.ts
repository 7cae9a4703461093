/**
 * Reads a text/event-stream body incrementally, as `EventSource` would: the data of each event, in order. Only `data`
 * fields matter to Anybrain; `event`, `id` and `retry` are ignored, comment lines (`: heartbeat`) are skipped.
 * https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
export class EventStreamParser {
  private pending = '';
  private dataLines: string[] = [];
  /** The last chunk ended in `\r`: a `\n` opening the next one completes that CRLF rather than ending a line. */
  private skipLeadingLineFeed = false;

  /** Feeds decoded text; returns the data of every event the text completed. */
  push(text: string): string[] {
    this.pending += this.skipLeadingLineFeed && text.startsWith('\n') ? text.slice(1) : text;
    this.skipLeadingLineFeed = false;
    const completed: string[] = [];
    for (;;) {
      const lineEnd = this.pending.search(/\r\n|\r|\n/);
      if (lineEnd === -1) break;
      const separatorLength = this.pending.startsWith('\r\n', lineEnd) ? 2 : 1;
      if (separatorLength === 1 && this.pending[lineEnd] === '\r' && lineEnd === this.pending.length - 1) {
        this.skipLeadingLineFeed = true;
      }
      const line = this.pending.slice(0, lineEnd);
      this.pending = this.pending.slice(lineEnd + separatorLength);
      const data = this.readLine(line);
      if (data !== null) completed.push(data);
    }
    return completed;
  }

  private readLine(line: string): string | null {
    if (line === '') {
      if (this.dataLines.length === 0) return null;
      const data = this.dataLines.join('\n');
      this.dataLines = [];
      return data;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return null;
    const value = colon === -1 ? '' : line.slice(colon + 1);
    this.dataLines.push(value.startsWith(' ') ? value.slice(1) : value);
    return null;
  }
}
