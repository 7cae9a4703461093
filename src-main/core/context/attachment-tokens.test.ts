import { describe, expect, it } from 'vitest';
import { attachmentTokenCeiling, attachmentTokens, type AttachmentCost } from './attachment-tokens';

const photo: AttachmentCost = { name: 'photo.png', kind: 'image', mediaType: 'image/png', size: 200_000, width: 1280, height: 720, pages: null };
const report: AttachmentCost = { name: 'report.pdf', kind: 'pdf', mediaType: 'application/pdf', size: 90_000, width: null, height: null, pages: 3 };
const notes: AttachmentCost = { name: 'notes.md', kind: 'text', mediaType: 'text/markdown', size: 4_000, width: null, height: null, pages: null };

describe('attachmentTokens', () => {
  it('charges an image by each provider\'s published rule', () => {
    // Anthropic: 1280 × 720 / 750.
    expect(attachmentTokens('claude', 'claude-sonnet-4-6', photo)).toBe(1_229);
    // OpenAI: short side to 768 gives 1365 × 768, 3 × 2 tiles of 512: 85 + 170 × 6.
    expect(attachmentTokens('codex', 'gpt-5.5-codex', photo)).toBe(1_105);
    // xAI: 3 × 2 tiles of 448 (at most 6) and an overview tile, 256 each.
    expect(attachmentTokens('grok', 'grok-4.3', photo)).toBe(1_792);
    expect(attachmentTokens('gemini', 'gemini-3.1-pro-preview', photo)).toBe(1_120);
    expect(attachmentTokens('kimi', 'kimi-k2.6', photo)).toBe(1_024);
    // A large photograph is scaled to 1568 on its long side first: Anthropic's ceiling.
    expect(attachmentTokens('claude', 'claude-sonnet-4-6', { ...photo, width: 4000, height: 3000 })).toBe(1_600);
  });

  it('charges a model that cannot take the file only its stand-in line', () => {
    expect(attachmentTokens('ollama', 'qwen3', photo)).toBe(21);
    expect(attachmentTokens('kimi', 'kimi-k2.6', report)).toBe(19);
    // Gemini takes no GIF.
    expect(attachmentTokens('gemini', 'gemini-3.1-pro-preview', { ...photo, mediaType: 'image/gif' })).toBe(21);
  });

  it('charges a PDF by its pages, and a text file by its bytes', () => {
    expect(attachmentTokens('claude', 'claude-sonnet-4-6', report)).toBe(9_000);
    expect(attachmentTokens('gemini', 'gemini-3.1-pro-preview', report)).toBe(1_680);
    expect(attachmentTokens('kimi', 'kimi-k2.6', notes)).toBe(1_000 + 13);
    // Pages the PDF's compressed page tree hides are guessed from its size.
    expect(attachmentTokens('claude', 'claude-sonnet-4-6', { ...report, pages: null, size: 120_000 })).toBe(9_000);
  });
});

describe('attachmentTokenCeiling', () => {
  it('is the most any brain is charged for the file, so a stored row never undercounts for the brain that answers', () => {
    expect(attachmentTokenCeiling(photo)).toBe(1_792);
    expect(attachmentTokenCeiling(report)).toBe(9_000);
    expect(attachmentTokenCeiling(notes)).toBe(1_013);
  });
});
