/**
 * Renderer chrome that must never live in a stored reply (DESIGN rule 2): collapsible `<details>` blocks, step
 * banners, receipt lines such as "2 memories · 1 tool". Detection for `doctor` and the chrome gate; stripping for
 * `repair chrome`. Code is never touched.
 */
import { splitCode } from './markdown-segments';

const COUNT = String.raw`\d+ (?:memory|memories|tool|tools|skill|skills)`;
/** A line that is only a receipt: "3 tools", "2 memories · 1 tool · 1 skill". */
const RECEIPT_LINE = new RegExp(String.raw`^[ \t]*(?:${COUNT})(?:[ \t]*[·|,][ \t]*${COUNT})*[ \t]*$`, 'gm');
const STEP_BANNER = /^[ \t]*#{1,6}[ \t]+Step[ \t]+\d+\b.*$/gm;
const DETAILS_BLOCK = /<details\b[\s\S]*?(?:<\/details>|$)/gi;
const DETAILS_OPEN = /<details\b/i;

export function hasChrome(text: string): boolean {
  return splitCode(text).some(
    (segment) =>
      !segment.code &&
      (DETAILS_OPEN.test(segment.text) || new RegExp(STEP_BANNER.source, 'm').test(segment.text) || new RegExp(RECEIPT_LINE.source, 'm').test(segment.text)),
  );
}

export function stripChrome(text: string): string {
  const stripped = splitCode(text)
    .map((segment) =>
      segment.code ? segment.text : segment.text.replace(DETAILS_BLOCK, '').replace(STEP_BANNER, '').replace(RECEIPT_LINE, ''),
    )
    .join('');
  // Removing whole lines leaves runs of blank lines behind.
  return stripped.replace(/\n{3,}/g, '\n\n').replace(/^\n+/, '').replace(/\n+$/, text.endsWith('\n') ? '\n' : '');
}
