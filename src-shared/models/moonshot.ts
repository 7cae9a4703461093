/**
 * Kimi, on Moonshot's Chat Completions: K3 (always thinking, 1,048,576 tokens, `max_completion_tokens` 131,072 by
 * default) and K2.x. Its vision guide sends `image_url` parts with a base64 data URL ("Supported formats: JPEG, PNG,
 * WebP"); PDFs go only through its file-extraction endpoint (an upload first), never inline.
 */
import { entriesOf, PNG_JPEG_WEBP, TEXT_ONLY, readOn, takes, tokens, type ModelEntry } from './entry';
import { KIMI_ALWAYS, kimiSwitch } from './reasoning-shapes';

const MODELS_PAGE = readOn('https://platform.kimi.ai/docs/models');
const KIMI_VISION = takes(PNG_JPEG_WEBP, false);

const kimi = entriesOf({ brain: 'kimi', inputs: KIMI_VISION, source: MODELS_PAGE });

const K3 = tokens(1_048_576, 131_072);
const K2 = tokens(262_144, 32_768);

export const KIMI_MODELS: readonly ModelEntry[] = [
  kimi('kimi-k3', { offered: true, window: K3, reasoning: KIMI_ALWAYS }),
  kimi('kimi-k2.6', { offered: true, window: K2, reasoning: kimiSwitch(true) }),
  kimi('kimi-k2.5', { offered: true, window: K2, reasoning: kimiSwitch(false) }),
  kimi('kimi-k3', { family: true, window: K3, reasoning: KIMI_ALWAYS }),
  kimi('kimi-k2', { family: true, window: K2, reasoning: kimiSwitch(false), inputs: TEXT_ONLY }),
];
