/**
 * Claude, as Anthropic publishes it: the models overview and each model's page (window, output limit, thinking,
 * default effort), and the deprecations the installed `@anthropic-ai/sdk` warns about.
 */
import { entriesOf, EVERY_IMAGE, readOn, takes, tokens, type ModelEntry, type ModelLifecycle } from './entry';
import { CLAUDE_ADAPTIVE, CLAUDE_ADAPTIVE_ONLY, CLAUDE_ADAPTIVE_ONLY_MEDIUM, CLAUDE_BUDGETED } from './reasoning-shapes';

const OVERVIEW = readOn('https://platform.claude.com/docs/about-claude/models/overview');
const DEPRECATIONS = readOn('https://platform.claude.com/docs/en/about-claude/model-deprecations');

/**
 * Minimum cacheable prompt lengths from https://platform.claude.com/docs/en/build-with-claude/prompt-caching: 4,096 tokens for Opus 4.5 and 4.6 and Haiku 4.5,
 * 2,048 for Sonnet 4.6 and the Haiku 3 models, 1,024 for Sonnet 4.5, Opus 4 and 4.1 and Sonnet 3.7. Models the page
 * does not list yet take the catalogue's cautious 4,096.
 */
const CACHE_FROM_1024 = { cacheMinimumTokens: 1_024 } as const;
const CACHE_FROM_2048 = { cacheMinimumTokens: 2_048 } as const;

// "PDF support is available on all active models"; every current model takes JPEG, PNG, GIF and WebP images.
const CLAUDE_INPUTS = takes(EVERY_IMAGE, true);

const claude = entriesOf({ brain: 'claude', inputs: CLAUDE_INPUTS, source: OVERVIEW });

function deprecated(retiresAt: string, replacement: string): ModelLifecycle {
  return { stage: 'deprecated', retiresAt, replacement };
}

const FRONTIER = tokens(1_000_000, 128_000);

export const CLAUDE_MODELS: readonly ModelEntry[] = [
  claude('claude-fable-5-2', { offered: true, window: FRONTIER, reasoning: CLAUDE_ADAPTIVE_ONLY }),
  claude('claude-opus-5-5', { offered: true, window: FRONTIER, reasoning: CLAUDE_ADAPTIVE_ONLY_MEDIUM }),
  claude('claude-sonnet-5-5', { offered: true, window: FRONTIER, reasoning: CLAUDE_ADAPTIVE_ONLY }),
  claude('claude-haiku-5-5', { offered: true, window: FRONTIER, reasoning: CLAUDE_ADAPTIVE_ONLY_MEDIUM }),
  claude('claude-fable-5-1', { window: FRONTIER, reasoning: CLAUDE_ADAPTIVE_ONLY }),
  claude('claude-fable-5', { window: FRONTIER, reasoning: CLAUDE_ADAPTIVE_ONLY }),
  claude('claude-opus-5', { window: FRONTIER, reasoning: CLAUDE_ADAPTIVE_ONLY }),
  claude('claude-sonnet-5', { window: FRONTIER, reasoning: CLAUDE_ADAPTIVE_ONLY }),
  claude('claude-opus-4-6', { window: tokens(1_000_000, 128_000), reasoning: CLAUDE_ADAPTIVE }),
  claude('claude-sonnet-4-6', { window: tokens(1_000_000, 64_000), reasoning: CLAUDE_ADAPTIVE, ...CACHE_FROM_2048 }),
  claude('claude-haiku-4-5', { window: tokens(200_000, 64_000), reasoning: CLAUDE_BUDGETED }),
  claude('claude-opus-4-5', {
    window: tokens(1_000_000, 64_000),
    reasoning: CLAUDE_BUDGETED,
    lifecycle: deprecated('2027-01-22', 'claude-opus-5-5'),
    source: DEPRECATIONS,
  }),
  claude('claude-sonnet-4-5', {
    window: tokens(200_000, 64_000),
    reasoning: CLAUDE_BUDGETED,
    ...CACHE_FROM_1024,
    lifecycle: deprecated('2026-11-30', 'claude-sonnet-5-5'),
    source: DEPRECATIONS,
  }),
  // Families, for ids no entry names (a new snapshot, a preview): the longest matching prefix wins.
  claude('claude-fable-5', { family: true, window: FRONTIER, reasoning: CLAUDE_ADAPTIVE_ONLY }),
  claude('claude-opus-5', { family: true, window: FRONTIER, reasoning: CLAUDE_ADAPTIVE_ONLY }),
  claude('claude-sonnet-5', { family: true, window: FRONTIER, reasoning: CLAUDE_ADAPTIVE_ONLY }),
  claude('claude-haiku-5', { family: true, window: FRONTIER, reasoning: CLAUDE_ADAPTIVE_ONLY_MEDIUM }),
  claude('claude-mythos-', { family: true, window: tokens(200_000, 32_000), reasoning: CLAUDE_ADAPTIVE_ONLY }),
  claude('claude-opus-4-8', { family: true, window: tokens(1_000_000, 32_000), reasoning: CLAUDE_ADAPTIVE_ONLY }),
  claude('claude-opus-4-7', { family: true, window: tokens(1_000_000, 32_000), reasoning: CLAUDE_ADAPTIVE_ONLY }),
  claude('claude-opus-4-6', { family: true, window: tokens(1_000_000, 128_000), reasoning: CLAUDE_ADAPTIVE }),
  claude('claude-sonnet-4-6', { family: true, window: tokens(1_000_000, 64_000), reasoning: CLAUDE_ADAPTIVE, ...CACHE_FROM_2048 }),
  claude('claude-opus-4', { family: true, window: tokens(1_000_000, 32_000), reasoning: CLAUDE_BUDGETED, ...CACHE_FROM_1024 }),
  claude('claude-haiku-', { family: true, window: tokens(200_000, 32_000), reasoning: CLAUDE_BUDGETED }),
  // Bare older Claude slugs have the 200,000 window.
  claude('claude-', { family: true, window: tokens(200_000, 32_000), reasoning: CLAUDE_BUDGETED }),
];
