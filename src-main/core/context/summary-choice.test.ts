import { describe, expect, it } from 'vitest';
import { chooseSummary, suitsWindow, type PathEntry, type SummaryCandidate } from './summary-choice';

/** Rows 0–19 of ten tokens, newest first, as the walk finds them. */
const rows: PathEntry[] = Array.from({ length: 20 }, (_, index) => ({ seq: 19 - index, tokens: 10 }));
const fittingFrom = (oldestSeq: number) => rows.filter((entry) => entry.seq >= oldestSeq);

const summary = (id: string, throughSeq: number, tokens: number, contextWindow: number | null = null, requested = false): SummaryCandidate => ({
  id,
  seq: 100 + throughSeq,
  tokens,
  throughSeq,
  madeFor: contextWindow === null ? null : { brain: 'ollama', model: 'qwen3', contextWindow, requested },
});
const claude = (contextWindow: number) => ({ brain: 'claude', contextWindow });
const ollama = (contextWindow: number) => ({ brain: 'ollama', contextWindow });

describe('chooseSummary', () => {
  const candidates = [summary('wide', 5, 60), summary('narrow', 5, 30), summary('late', 13, 20)];

  it('takes the summary covering the fewest rows, its largest version first, when it fits with the rows after it', () => {
    // Rows 6–19 cost 140: with "wide" (60) 200, with "narrow" (30) 170.
    expect(chooseSummary(fittingFrom(3), 2, candidates, 200, claude(100_000))).toMatchObject({ summary: { id: 'wide' }, tokens: 200 });
    expect(chooseSummary(fittingFrom(3), 2, candidates, 199, claude(100_000))).toMatchObject({ summary: { id: 'narrow' }, tokens: 170 });
    const late = chooseSummary(fittingFrom(3), 2, candidates, 169, claude(100_000));
    expect(late).toMatchObject({ summary: { id: 'late' }, tokens: 80 });
    expect(late!.kept.map((entry) => entry.seq)).toEqual([19, 18, 17, 16, 15, 14]);
  });

  it('never takes a summary that leaves a gap: rows between its end and the rows that fit would be lost', () => {
    // Only rows 10–19 fit; the summaries through row 5 would leave rows 6–9 out.
    expect(chooseSummary(fittingFrom(10), 9, candidates, 100, claude(100_000))).toMatchObject({ summary: { id: 'late' } });
    expect(chooseSummary(fittingFrom(15), 14, candidates, 50, claude(100_000))).toBeNull();
  });

  it('holds the summary the person asked this brain for, even while every row fits; other brains keep the rows', () => {
    const asked = [summary('asked', 9, 40, 200_000, true), summary('older', 5, 30)];
    expect(chooseSummary(rows, null, asked, 1_000, ollama(200_000))).toMatchObject({ summary: { id: 'asked' }, tokens: 140 });
    expect(chooseSummary(rows, null, asked, 1_000, claude(200_000))).toBeNull();
    // When it no longer fits, the usual choice.
    expect(chooseSummary(fittingFrom(12), 11, asked, 70, ollama(200_000))).toBeNull();
  });

  it('answers null when none fits, or none was made for about this window', () => {
    expect(chooseSummary(fittingFrom(3), 2, candidates, 79, claude(100_000))).toBeNull();
    expect(chooseSummary(fittingFrom(3), 2, [summary('small', 5, 30, 4_096)], 500, claude(1_000_000))).toBeNull();
    expect(chooseSummary(fittingFrom(3), 2, [summary('small', 5, 30, 4_096)], 500, claude(8_192))).toMatchObject({ summary: { id: 'small' } });
  });
});

describe('suitsWindow', () => {
  it('suits a window up to twice the one it was made for, and any window when none was recorded', () => {
    expect(suitsWindow(summary('s', 0, 0, 131_072), 262_144)).toBe(true);
    expect(suitsWindow(summary('s', 0, 0, 131_072), 262_145)).toBe(false);
    expect(suitsWindow(summary('s', 0, 0, 1_000_000), 4_096)).toBe(true);
    expect(suitsWindow(summary('s', 0, 0), 10_000_000)).toBe(true);
  });
});
