// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditRenderedMarkup } from '../../e2e/fixtures/untrusted-output/audit';
import {
  isCompact,
  PAYLOAD_CATEGORIES,
  UNTRUSTED_PAYLOADS,
  type UntrustedPayload,
} from '../../e2e/fixtures/untrusted-output/payloads';
import { MarkdownView } from './Markdown';

/** Streamed one character at a time: the first few compact payloads of every category. */
const STREAMED_PER_CATEGORY = 4;
/** Deep-nesting payloads are kilobytes long: streamed in steps of this many characters. */
const NESTING_STEP = 37;

const tripwire = vi.fn<(marker: unknown) => void>();

beforeEach(() => {
  tripwire.mockReset();
  Object.assign(window, { __pwned: tripwire, alert: tripwire });
});
afterEach(cleanup);

function streamedSubset(): UntrustedPayload[] {
  return PAYLOAD_CATEGORIES.flatMap((category) =>
    UNTRUSTED_PAYLOADS.filter((payload) => payload.category === category && isCompact(payload, 300)).slice(0, STREAMED_PER_CATEGORY),
  );
}

describe('the untrusted output corpus', () => {
  it('holds at least 300 payloads with unique ids, covering every category', () => {
    expect(UNTRUSTED_PAYLOADS.length).toBeGreaterThanOrEqual(300);
    expect(new Set(UNTRUSTED_PAYLOADS.map((payload) => payload.id)).size).toBe(UNTRUSTED_PAYLOADS.length);
    expect(UNTRUSTED_PAYLOADS.every((payload) => /^[a-z0-9-]+$/.test(payload.id))).toBe(true);
    expect(new Set(UNTRUSTED_PAYLOADS.map((payload) => payload.category))).toEqual(new Set(PAYLOAD_CATEGORIES));
  });
});

describe('MarkdownView on the untrusted output corpus', () => {
  it('renders every payload whole without markup that runs, fetches or clobbers, and without a fallback', () => {
    const failures: string[] = [];
    for (const payload of UNTRUSTED_PAYLOADS) {
      const view = render(<div data-testid="payload-root"><MarkdownView text={payload.text} /></div>);
      const problems = auditRenderedMarkup('[data-testid="payload-root"]');
      if (problems.length > 0) failures.push(`${payload.id}: ${problems.join(', ')}`);
      if (view.queryByTestId('markdown-fallback') !== null) failures.push(`${payload.id}: fell back to plain text`);
      view.unmount();
    }
    expect(failures).toEqual([]);
    expect(tripwire).not.toHaveBeenCalled();
  }, 120_000);

  it('streams a subset one character at a time, safe at every step, ending as the whole text renders', () => {
    const subset = streamedSubset();
    expect(subset.length).toBeGreaterThanOrEqual(PAYLOAD_CATEGORIES.length * 2);
    const failures: string[] = [];
    for (const payload of subset) {
      const characters = Array.from(payload.text);
      const view = render(<div data-testid="payload-root"><MarkdownView text="" /></div>);
      for (let length = 1; length <= characters.length; length += 1) {
        view.rerender(<div data-testid="payload-root"><MarkdownView text={characters.slice(0, length).join('')} /></div>);
        const problems = auditRenderedMarkup('[data-testid="payload-root"]');
        if (problems.length > 0) {
          failures.push(`${payload.id} at ${length} characters: ${problems.join(', ')}`);
          break;
        }
      }
      const streamedMarkup = view.container.innerHTML;
      view.unmount();
      const whole = render(<div data-testid="payload-root"><MarkdownView text={payload.text} /></div>);
      if (whole.container.innerHTML !== streamedMarkup) failures.push(`${payload.id}: streamed markup differs from the whole text's`);
      whole.unmount();
    }
    expect(failures).toEqual([]);
    expect(tripwire).not.toHaveBeenCalled();
  }, 180_000);

  it('streams the deep-nesting payloads in small steps, capped and formatted at every step', () => {
    const nesting = UNTRUSTED_PAYLOADS.filter((payload) => payload.category === 'deep-nesting' && isCompact(payload, 4000));
    expect(nesting.length).toBeGreaterThanOrEqual(8);
    const failures: string[] = [];
    for (const payload of nesting) {
      const view = render(<div data-testid="payload-root"><MarkdownView text="" /></div>);
      for (let length = NESTING_STEP; length < payload.text.length + NESTING_STEP; length += NESTING_STEP) {
        view.rerender(<div data-testid="payload-root"><MarkdownView text={payload.text.slice(0, length)} /></div>);
        const problems = auditRenderedMarkup('[data-testid="payload-root"]');
        if (view.queryByTestId('markdown-fallback') !== null) problems.push('fell back to plain text');
        if (problems.length > 0) {
          failures.push(`${payload.id} at ${length} characters: ${problems.join(', ')}`);
          break;
        }
      }
      view.unmount();
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
