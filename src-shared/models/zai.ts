/**
 * GLM, on Z.ai's Anthropic-compatible endpoint. The GLM text models take text only; the vision models GLM-4.5V and
 * GLM-4.6V take JPEG and PNG images. The endpoint documents no `document` blocks.
 */
import { entriesOf, PNG_JPEG, TEXT_ONLY, readOn, takes, tokens, type ModelEntry } from './entry';
import { GLM_ALWAYS, GLM_SWITCH } from './reasoning-shapes';

const MODELS_PAGE = readOn('https://docs.z.ai/guides/overview/pricing');

const glm = entriesOf({ brain: 'glm', inputs: TEXT_ONLY, source: MODELS_PAGE });

const GLM5 = tokens(200_000, 128_000);

export const GLM_MODELS: readonly ModelEntry[] = [
  glm('glm-5.3', { offered: true, window: tokens(1_000_000, 131_072), reasoning: GLM_ALWAYS }),
  glm('glm-5.2', { offered: true, window: tokens(1_000_000, 131_072), reasoning: GLM_SWITCH }),
  glm('glm-5.1', { offered: true, window: GLM5, reasoning: GLM_SWITCH }),
  glm('glm-5', { window: GLM5, reasoning: GLM_SWITCH }),
  glm('glm-4.7', { window: GLM5, reasoning: GLM_SWITCH }),
  glm('glm-4.6', { window: GLM5, reasoning: GLM_SWITCH }),
  glm('glm-4.6v', { family: true, window: tokens(200_000, 32_000), reasoning: GLM_SWITCH, inputs: takes(PNG_JPEG, false) }),
  glm('glm-4.5v', { family: true, window: tokens(200_000, 32_000), reasoning: GLM_SWITCH, inputs: takes(PNG_JPEG, false) }),
  glm('glm-', { family: true, window: tokens(200_000, 32_000), reasoning: GLM_SWITCH }),
];
