import { describe, expect, it } from 'vitest';
import { terminalOutput, terminalSafe } from './terminal-text';

describe('terminalSafe', () => {
  it('writes out every control character a terminal acts on, keeping tab and newline', () => {
    expect(terminalSafe('a\u001b]0;pwned\u0007b\tc\nd\u001b[2Je\u0000f\u007fg\u009bh\u0008')).toBe('a\\x1b]0;pwned\\x07b\tc\nd\\x1b[2Je\\x00f\\x7fg\\x9bh\\x08');
  });

  it('keeps Windows line ends as line ends and writes out a lone carriage return', () => {
    expect(terminalSafe('one\r\ntwo\rthree')).toBe('one\ntwo\\x0dthree');
  });

  it('leaves ordinary text alone, accents, CJK and emoji included', () => {
    expect(terminalSafe('Café 東京 🧠 — “quoted”')).toBe('Café 東京 🧠 — “quoted”');
  });
});

describe('terminalOutput', () => {
  function stream(isTTY: boolean) {
    const written: string[] = [];
    return { isTTY, written, write: (text: string) => written.push(text) };
  }

  it('escapes what goes to a terminal and passes a pipe the bytes unchanged', () => {
    const terminal = stream(true);
    const pipe = stream(false);
    const output = terminalOutput(pipe, terminal);
    output.stdout('title \u001b]0;x\u0007\n');
    output.stderr('title \u001b]0;x\u0007\n');
    expect(pipe.written).toEqual(['title \u001b]0;x\u0007\n']);
    expect(terminal.written).toEqual(['title \\x1b]0;x\\x07\n']);
  });
});
