/**
 * What the command line prints to a terminal: titles, replies and file contents come from imports and models, and a
 * terminal acts on the control characters in them (ESC ] 0 ; … BEL sets its title, ESC [ … moves the cursor or
 * rewrites what is shown, OSC 52 writes the clipboard). Printed to a terminal, each is shown as an escape instead;
 * piped to a file or another program, the text stays byte for byte.
 */
import type { Output } from './commands';

// C0 controls but tab and newline, DEL, and the C1 controls (U+009B is a one-character CSI to many terminals).
// eslint-disable-next-line no-control-regex
const TERMINAL_CONTROLS = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

function escaped(control: string): string {
  // Windows line ends stay line ends.
  if (control === '\r\n') return '\n';
  const code = control.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control character a terminal would act on written out as `\xNN`; tab and newline kept. */
export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_CONTROLS, escaped);
}

interface WritableStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** The command line's output: escaped where a stream is a terminal, untouched where it is a pipe or a file. */
export function terminalOutput(stdout: WritableStream, stderr: WritableStream): Output {
  const writer = (stream: WritableStream) => (stream.isTTY === true ? (text: string) => void stream.write(terminalSafe(text)) : (text: string) => void stream.write(text));
  return { stdout: writer(stdout), stderr: writer(stderr) };
}
