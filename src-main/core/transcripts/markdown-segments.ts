/**
 * Markdown split into code (fenced blocks, inline spans) and prose, so text repairs never touch code.
 */

export interface Segment {
  readonly text: string;
  readonly code: boolean;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

/** Splits text into code and prose: fenced blocks by line, inline code spans by matching backtick runs. */
export function splitCode(text: string): Segment[] {
  const segments: Segment[] = [];
  const lines = text.split(/(?<=\n)/);
  let prose = '';
  let fence: string | null = null;
  let fenced = '';
  for (const line of lines) {
    if (fence === null) {
      const opening = FENCE_OPEN.exec(line);
      if (opening) {
        for (const inline of splitInline(prose)) segments.push(inline);
        prose = '';
        fence = opening[1]!;
        fenced = line;
      } else {
        prose += line;
      }
      continue;
    }
    fenced += line;
    const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    if (closing.test(line.replace(/\n$/, ''))) {
      segments.push({ text: fenced, code: true });
      fence = null;
      fenced = '';
    }
  }
  if (fence !== null) segments.push({ text: fenced, code: true });
  for (const inline of splitInline(prose)) segments.push(inline);
  return segments.filter((segment) => segment.text.length > 0);
}

function splitInline(text: string): Segment[] {
  const segments: Segment[] = [];
  let cursor = 0;
  let proseStart = 0;
  while (cursor < text.length) {
    if (text[cursor] !== '`') {
      cursor += 1;
      continue;
    }
    let runEnd = cursor;
    while (text[runEnd] === '`') runEnd += 1;
    const run = text.slice(cursor, runEnd);
    const close = findClosingRun(text, runEnd, run.length);
    if (close === -1) {
      cursor = runEnd;
      continue;
    }
    segments.push({ text: text.slice(proseStart, cursor), code: false });
    segments.push({ text: text.slice(cursor, close + run.length), code: true });
    cursor = close + run.length;
    proseStart = cursor;
  }
  segments.push({ text: text.slice(proseStart), code: false });
  return segments;
}

function findClosingRun(text: string, from: number, length: number): number {
  let index = from;
  while (index < text.length) {
    if (text[index] !== '`') {
      index += 1;
      continue;
    }
    let end = index;
    while (text[end] === '`') end += 1;
    if (end - index === length) return index;
    index = end;
  }
  return -1;
}
