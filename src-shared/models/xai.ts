/**
 * Grok, on xAI's Responses API. Grok 4 models take `input_image` ("Supported image file types: jpg/jpeg or png", at
 * most 10 MiB); files go through xAI's Files API by id (an upload first), so PDFs replay as the stand-in.
 */
import { entriesOf, PNG_JPEG, readOn, takes, tokens, type ModelEntry } from './entry';
import { GROK_ALWAYS, GROK_EFFORT, GROK_LEVELS, GROK_NEVER } from './reasoning-shapes';

const MODELS_PAGE = readOn('https://docs.x.ai/developers/models');
const GROK_INPUTS = takes(PNG_JPEG, false);

const grok = entriesOf({ brain: 'grok', inputs: GROK_INPUTS, source: MODELS_PAGE });

const MILLION = tokens(1_000_000, 64_000);

export const GROK_MODELS: readonly ModelEntry[] = [
  grok('grok-4.5', { offered: true, window: tokens(500_000, 64_000), reasoning: GROK_LEVELS, source: readOn('https://docs.x.ai/developers/grok-4-5') }),
  grok('grok-4.3', { offered: true, window: MILLION, reasoning: GROK_EFFORT }),
  grok('grok-4.20', { offered: true, window: MILLION, reasoning: GROK_ALWAYS }),
  grok('grok-4.20-reasoning', { window: MILLION, reasoning: GROK_ALWAYS }),
  grok('grok-4.20-non-reasoning', { window: MILLION, reasoning: GROK_NEVER }),
  grok('grok-4', { window: tokens(256_000, 64_000), reasoning: GROK_ALWAYS }),
  grok('grok-4', { family: true, window: tokens(256_000, 64_000), reasoning: GROK_ALWAYS }),
];
