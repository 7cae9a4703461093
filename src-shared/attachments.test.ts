import { describe, expect, it } from 'vitest';
import { ATTACHMENT_ACCEPT, attachmentRefusal, attachmentStandIn, kindClaimedByName, modelInputs, textMediaTypeFor } from './attachments';

describe('modelInputs', () => {
  it('reads the table: models by name, then their families; text only for a model it does not know', () => {
    const all = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
    expect(modelInputs('claude', 'claude-sonnet-4-6')).toEqual({ images: true, pdfs: true, imageTypes: all });
    expect(modelInputs('codex', 'gpt-5.5-codex')).toEqual({ images: true, pdfs: true, imageTypes: all });
    expect(modelInputs('gemini', 'gemini-3.1-pro-preview')).toEqual({ images: true, pdfs: true, imageTypes: ['image/png', 'image/jpeg', 'image/webp'] });
    expect(modelInputs('kimi', 'kimi-k2.6')).toEqual({ images: true, pdfs: false, imageTypes: ['image/png', 'image/jpeg', 'image/webp'] });
    expect(modelInputs('grok', 'grok-4.3')).toEqual({ images: true, pdfs: false, imageTypes: ['image/png', 'image/jpeg'] });
    expect(modelInputs('glm', 'glm-5.1')).toEqual({ images: false, pdfs: false, imageTypes: [] });
    expect(modelInputs('glm', 'glm-4.6v')).toEqual({ images: true, pdfs: false, imageTypes: ['image/png', 'image/jpeg'] });
    expect(modelInputs('ollama', 'qwen3')).toEqual({ images: false, pdfs: false, imageTypes: [] });
    expect(modelInputs('ollama', 'gemma3:27b')).toEqual({ images: true, pdfs: false, imageTypes: ['image/png', 'image/jpeg'] });
    expect(modelInputs('kimi', 'some-new-model')).toEqual({ images: false, pdfs: false, imageTypes: [] });
  });
});

describe('attachmentRefusal', () => {
  it('is null when the model takes every kind, and text files go to every model', () => {
    expect(attachmentRefusal('gemini', 'gemini-3.1-pro-preview', ['image', 'pdf', 'text'])).toBeNull();
    expect(attachmentRefusal('ollama', 'qwen3', ['text', 'text'])).toBeNull();
  });

  it('names what the model cannot take and a brain that can', () => {
    expect(attachmentRefusal('ollama', 'qwen3', ['image'])).toBe('Ollama qwen3 cannot see images here; switch to Gemini or remove it.');
    expect(attachmentRefusal('kimi', 'kimi-k2.6', ['pdf', 'pdf', 'image'])).toBe('Kimi kimi-k2.6 cannot read PDFs here; switch to Gemini or remove them.');
    expect(attachmentRefusal('glm', 'glm-5.1', ['image', 'pdf'])).toBe('GLM glm-5.1 cannot see images or read PDFs here; switch to Gemini or remove them.');
    expect(attachmentRefusal('gemini', 'gemini-3.1-pro-preview', ['image'], ['image/gif'])).toBe(
      'Gemini gemini-3.1-pro-preview cannot see GIF images here; switch to Claude or remove it.',
    );
    expect(attachmentRefusal('grok', 'grok-4.3', ['image'], ['image/png'])).toBeNull();
  });
});

describe('names and stand-ins', () => {
  it('tells kinds apart by name, for the picker and for text files', () => {
    expect(kindClaimedByName('Photo.JPEG')).toBe('image');
    expect(kindClaimedByName('report.pdf')).toBe('pdf');
    expect(kindClaimedByName('main.rs')).toBe('text');
    expect(kindClaimedByName('logo.svg')).toBeNull();
    expect(textMediaTypeFor('notes.md')).toBe('text/markdown');
    expect(ATTACHMENT_ACCEPT.startsWith('image/png,image/jpeg,image/webp,image/gif,application/pdf,.txt,')).toBe(true);
    expect(ATTACHMENT_ACCEPT).not.toContain('svg');
  });

  it('labels what a brain cannot take', () => {
    expect(attachmentStandIn({ name: 'photo.png', kind: 'image', width: 1280, height: 720 })).toBe(
      '[image photo.png (1280x720) was shown to an earlier brain; this brain cannot see it]',
    );
    expect(attachmentStandIn({ name: 'report.pdf', kind: 'pdf', width: null, height: null })).toBe(
      '[PDF report.pdf was shown to an earlier brain; this brain cannot read it]',
    );
  });
});
