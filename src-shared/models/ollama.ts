/**
 * Ollama's models, by the names its library gives them. The window here is what a model was trained for; what a
 * request gets is its `num_ctx`, which Anybrain asks the server for and sends with every request (catalogue.ts). A
 * message's `images` (base64) go to vision models only; Ollama reads no PDFs. PNG and JPEG are what every vision
 * model's image loader decodes.
 */
import { entriesOf, PNG_JPEG, TEXT_ONLY, readOn, takes, tokens, type ModelEntry } from './entry';
import { OLLAMA_LEVELS, OLLAMA_NONE, OLLAMA_SWITCH, OLLAMA_UNKNOWN } from './reasoning-shapes';

const LIBRARY = readOn('https://ollama.com/library');

const ollama = entriesOf({ brain: 'ollama', family: true, inputs: TEXT_ONLY, source: LIBRARY });

/** Vision families, each with how it thinks: Llama and older vision models do not, Qwen3-VL takes the switch. */
const VISION_FAMILIES = [
  ...['llava', 'bakllava', 'gemma3', 'qwen2.5vl', 'minicpm-v', 'moondream', 'mistral-small3.1', 'granite3.2-vision'].map((match) => ({ match, reasoning: OLLAMA_UNKNOWN })),
  ...['llama3.2-vision', 'llama4'].map((match) => ({ match, reasoning: OLLAMA_NONE })),
  { match: 'qwen3-vl', reasoning: OLLAMA_SWITCH },
];

/** A model whose trained length the catalogue does not hold: the server's answer decides; this is only a ceiling. */
const UNDESCRIBED = tokens(32_768, 8_192);

export const OLLAMA_MODELS: readonly ModelEntry[] = [
  ollama('qwen3', { offered: true, window: tokens(40_960, 32_768), reasoning: OLLAMA_SWITCH }),
  ollama('gpt-oss', { offered: true, window: tokens(131_072, 32_768), reasoning: OLLAMA_LEVELS }),
  ollama('llama3.3', { offered: true, window: tokens(131_072, 32_768), reasoning: OLLAMA_NONE }),
  ...VISION_FAMILIES.map(({ match, reasoning }) => ollama(match, { window: UNDESCRIBED, reasoning, inputs: takes(PNG_JPEG, false) })),
  ollama('llama', { window: tokens(131_072, 32_768), reasoning: OLLAMA_NONE }),
];
