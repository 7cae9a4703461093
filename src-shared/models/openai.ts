/**
 * Codex, on OpenAI's Responses API: the GPT-5.x models as OpenAI's model pages describe them. GPT-5.x takes
 * `input_image` (PNG, JPEG, WebP, non-animated GIF) and `input_file` with a PDF as `file_data`.
 */
import { entriesOf, EVERY_IMAGE, readOn, takes, tokens, type ModelEntry } from './entry';
import { GPT5_CODEX, GPT5_RECENT } from './reasoning-shapes';

const MODELS_PAGE = readOn('https://developers.openai.com/api/docs/models');
const GPT5_INPUTS = takes(EVERY_IMAGE, true);

const codex = entriesOf({ brain: 'codex', inputs: GPT5_INPUTS, source: MODELS_PAGE });

// GPT-5.6 Sol, Terra and Luna share one envelope: 1,050,000 tokens, 128,000 of them out, efforts none to max.
const GPT56 = tokens(1_050_000, 128_000);

export const CODEX_MODELS: readonly ModelEntry[] = [
  codex('gpt-5.6-terra', { offered: true, window: GPT56, reasoning: GPT5_RECENT }),
  codex('gpt-5.6-sol', { offered: true, window: GPT56, reasoning: GPT5_RECENT }),
  codex('gpt-5.6-luna', { offered: true, window: GPT56, reasoning: GPT5_RECENT }),
  codex('gpt-5.5', { offered: true, window: tokens(1_050_000, 128_000), reasoning: GPT5_RECENT }),
  // The alias routes to Sol.
  codex('gpt-5.6', { window: GPT56, reasoning: GPT5_RECENT }),
  // The Codex default budget; the model page says 400,000.
  codex('gpt-5.5-codex', { window: tokens(272_000, 128_000), reasoning: GPT5_CODEX }),
  codex('gpt-5.6', { family: true, window: GPT56, reasoning: GPT5_RECENT }),
  codex('gpt-5', { family: true, window: tokens(272_000, 128_000), reasoning: GPT5_CODEX }),
];
