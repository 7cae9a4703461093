/**
 * Gemini, on Google's generateContent: Gemini 4 shares one 1,048,576-token limit between input and output and writes
 * at most 65,536 tokens per streamed request; Gemini 3 sets thinking with `thinkingLevel`, earlier models with
 * `thinkingBudget`. Every Gemini takes images (PNG, JPEG, WebP, HEIC, HEIF: no GIF) and PDFs as `inlineData`.
 */
import { entriesOf, PNG_JPEG_WEBP, readOn, takes, tokens, type ModelEntry } from './entry';
import { GEMINI_31_PRO, GEMINI_3_FLASH, GEMINI_3_PRO, GEMINI_4_HIGH, GEMINI_4_MEDIUM, GEMINI_BUDGETED } from './reasoning-shapes';

const MODELS_PAGE = readOn('https://ai.google.dev/gemini-api/docs/models');
const DEPRECATIONS = readOn('https://ai.google.dev/gemini-api/docs/deprecations');
const GEMINI_INPUTS = takes(PNG_JPEG_WEBP, true);

const gemini = entriesOf({ brain: 'gemini', inputs: GEMINI_INPUTS, source: MODELS_PAGE });

const LONG = tokens(1_048_576, 65_536);

export const GEMINI_MODELS: readonly ModelEntry[] = [
  gemini('gemini-4-argon', { offered: true, window: LONG, reasoning: GEMINI_4_MEDIUM, source: readOn('https://ai.google.dev/gemini-api/docs/generate-content/latest-model') }),
  gemini('gemini-4-hydrogen', { offered: true, window: LONG, reasoning: GEMINI_4_HIGH }),
  gemini('gemini-3.1-pro-preview', { offered: true, window: LONG, reasoning: GEMINI_31_PRO }),
  gemini('gemini-3-flash-preview', { offered: true, window: LONG, reasoning: GEMINI_3_FLASH }),
  gemini('gemini-3-pro-preview', {
    window: LONG,
    reasoning: GEMINI_3_PRO,
    lifecycle: { stage: 'retired', retiredOn: '2026-03-09', replacement: 'gemini-3.1-pro-preview' },
    source: DEPRECATIONS,
  }),
  gemini('gemini-4', { family: true, window: LONG, reasoning: GEMINI_4_MEDIUM }),
  gemini('gemini-3', { family: true, window: LONG, reasoning: GEMINI_3_PRO }),
  gemini('gemini-', { family: true, window: tokens(1_048_576, 8_192), reasoning: GEMINI_BUDGETED }),
];
