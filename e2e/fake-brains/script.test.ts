import { describe, expect, it } from 'vitest';
import { DEFAULT_DELAY_MS, SLOW_DELAY_MS, parseDirectives, planReply, splitIntoChunks } from './script';

describe('parseDirectives', () => {
  it('reads every directive anywhere in the text', () => {
    expect(parseDirectives('a [slow] b [empty] [markdown] [error-midstream] [drop] [too-large] [model: m-1 ] [status:503] [reply:x\\ny]')).toEqual({
      slow: true,
      empty: true,
      markdown: true,
      errorMidstream: true,
      drop: true,
      tooLarge: true,
      model: 'm-1',
      status: 503,
      reply: 'x\ny',
    });
  });

  it('finds none in plain text', () => {
    expect(parseDirectives('plain [words] here')).toEqual({
      slow: false,
      empty: false,
      markdown: false,
      errorMidstream: false,
      drop: false,
      tooLarge: false,
      model: null,
      status: null,
      reply: null,
    });
  });
});

describe('planReply', () => {
  it('echoes by default, in the requested model, 5 ms apart', () => {
    expect(planReply({ label: 'Claude', userText: 'hi there', requestedModel: 'claude-x' })).toEqual({
      failure: null,
      text: 'Fake Claude reply to: hi there',
      chunks: ['Fake', ' Claude', ' reply', ' to:', ' hi', ' there'],
      delayMs: DEFAULT_DELAY_MS,
      model: 'claude-x',
      ending: 'complete',
      chunksBeforeEnding: 6,
    });
  });

  it('plans failures: a status wins over too-large, a drop over a mid-stream error', () => {
    expect(planReply({ label: 'Kimi', userText: '[too-large] [status:429]', requestedModel: 'k' }).failure).toEqual({ kind: 'status', status: 429 });
    expect(planReply({ label: 'Kimi', userText: '[too-large]', requestedModel: 'k' }).failure).toEqual({ kind: 'too-large' });
    const dropped = planReply({ label: 'Kimi', userText: '[reply:a b c] [drop] [error-midstream]', requestedModel: 'k' });
    expect([dropped.ending, dropped.chunksBeforeEnding]).toEqual(['drop', 2]);
  });

  it('slows down to 60 words', () => {
    const plan = planReply({ label: 'GLM', userText: '[slow]', requestedModel: 'glm-5.1' });
    expect(plan.chunks).toHaveLength(60);
    expect(plan.text.endsWith('word59 word60')).toBe(true);
    expect(plan.delayMs).toBe(SLOW_DELAY_MS);
  });

  it('splits before spaces so the chunks join back to the text', () => {
    expect(splitIntoChunks('a  b\nc d')).toEqual(['a', ' ', ' b\nc', ' d']);
    expect(splitIntoChunks('')).toEqual([]);
  });
});
