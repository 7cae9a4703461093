import { describe, expect, it } from 'vitest';
import { offeredModels } from './catalogue';
import { modelsToOffer } from './offered';
import { reportedModel, spokenAge } from './reported';

const NOW = new Date('2026-12-07T12:00:00.000Z');

describe('modelsToOffer', () => {
  it("offers the catalogue's models until the provider has answered", () => {
    expect(modelsToOffer('claude', null, NOW)).toEqual(offeredModels('claude'));
  });

  it("offers the provider's chat models newest first, leaving out retired, retiring-today and non-chat ones", () => {
    const models = [
      reportedModel('claude-sonnet-4-6', { createdAt: '2026-02-17T00:00:00Z' }),
      reportedModel('claude-nova-6', { createdAt: '2026-11-20T00:00:00Z' }),
      reportedModel('claude-3-haiku', { createdAt: '2024-03-07T00:00:00Z', lifecycle: 'retired' }),
      reportedModel('claude-sonnet-4-5', { createdAt: '2025-09-29T00:00:00Z', lifecycle: 'deprecated', retiresAt: '2026-12-07' }),
      reportedModel('claude-opus-4-1', { createdAt: '2025-08-05T00:00:00Z', lifecycle: 'deprecated', retiresAt: '2027-03-01' }),
      reportedModel('claude-embed', { chats: false }),
    ];
    expect(modelsToOffer('claude', models, NOW)).toEqual(['claude-nova-6', 'claude-sonnet-4-6', 'claude-opus-4-1']);
  });

  it('orders by the instant each model was made, whatever the offset it is written with', () => {
    const models = [
      reportedModel('llama3.2:latest', { createdAt: '2025-05-04T17:37:44.706015396-07:00' }),
      reportedModel('deepseek-r1:latest', { createdAt: '2025-05-10T08:06:48.639712648-07:00' }),
      reportedModel('qwen3:latest', { createdAt: '2025-05-05T02:00:00Z' }),
      reportedModel('mystery', { createdAt: 'yesterday' }),
    ];
    expect(modelsToOffer('ollama', models, NOW)).toEqual(['deepseek-r1:latest', 'qwen3:latest', 'llama3.2:latest', 'mystery']);
  });

  it('keeps a list that only proves existence to the models the catalogue knows by name or family', () => {
    const models = [reportedModel('gpt-5.6', { createdAt: '2026-05-28T00:00:00Z' }), reportedModel('dall-e-3', { createdAt: '2023-10-31T00:00:00Z' }), reportedModel('whisper-1')];
    expect(modelsToOffer('codex', models, NOW)).toEqual(['gpt-5.6']);
    expect(modelsToOffer('codex', [reportedModel('whisper-1')], NOW)).toEqual(offeredModels('codex'));
  });
});

describe('spokenAge', () => {
  it('says how old an answer is in calendar days', () => {
    expect(spokenAge('2026-12-07T00:30:00.000Z', NOW)).toBe('today');
    expect(spokenAge('2026-12-06T23:59:00.000Z', NOW)).toBe('yesterday');
    expect(spokenAge('2026-12-01T12:00:00.000Z', NOW)).toBe('6 days ago');
    expect(spokenAge('2026-11-30T12:00:00.000Z', NOW)).toBe('on 2026-11-30');
    expect(spokenAge('not a time', NOW)).toBe('at an unknown time');
  });
});
