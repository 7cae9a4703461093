/**
 * Converting hostile ChatGPT exports against `JSON.parse` of the same bytes (measured in the same run): a 12.6 MB
 * export whose alternatives all go on from shared drafts (time, and stored characters per byte of JSON), and a
 * question with 50,000 regenerated replies. This file reports; it never fails on time.
 */
import { describe, it } from 'vitest';
import { chatGptExportToTranscripts } from '../../src-main/core/transcripts/foreign/chatgpt';
import { storedCharacters } from '../../src-main/core/transcripts/import-size';
import { chatGptSharedDrafts, chatGptSiblings } from '../../src-main/core/transcripts/testing/hostile-imports';
import { median } from '../replay/timing';
import { isSmokeRun, reportScenario } from '../support/scenario-line';

const SMOKE = isSmokeRun();
const REPETITIONS = SMOKE ? 1 : 5;

function timed(work: () => unknown): number {
  const samples: number[] = [];
  for (let run = 0; run < REPETITIONS; run += 1) {
    const started = performance.now();
    work();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

function compare(name: string, text: string): void {
  const parse = timed(() => JSON.parse(text));
  const convert = timed(() => chatGptExportToTranscripts(JSON.parse(text)));
  reportScenario({ name: `${name}-vs-json-parse`, value: convert, baseline: parse, unit: 'ms', target: '<= 10x', met: convert <= parse * 10 });
}

describe('converting hostile ChatGPT exports', () => {
  it('shared drafts and 50,000 siblings against JSON.parse', () => {
    // About 40 KB a conversation: 315 make the 12.6 MB export.
    const drafts = JSON.stringify(chatGptSharedDrafts({ conversations: SMOKE ? 3 : 315, draftCharacters: 20_000, alternatives: 100 }));
    compare(`chatgpt-shared-drafts-${(drafts.length / 1e6).toFixed(1)}mb`, drafts);
    const stored = chatGptExportToTranscripts(JSON.parse(drafts)).transcripts.reduce((sum, transcript) => sum + storedCharacters(transcript), 0);
    reportScenario({ name: 'chatgpt-shared-drafts-stored-per-json-byte', value: stored / Buffer.byteLength(drafts), baseline: null, unit: '', target: '<= 1.5', met: stored <= 1.5 * Buffer.byteLength(drafts) });
    compare(`chatgpt-siblings-${SMOKE ? '1k' : '50k'}`, JSON.stringify(chatGptSiblings(SMOKE ? 1_000 : 50_000)));
  });
});
