import { describe, expect, it } from 'vitest';
import { describeImportSummary } from './import-summary';

describe('describeImportSummary', () => {
  it('counts what was imported and says why each skipped conversation was left out', () => {
    expect(describeImportSummary({ conversations: 212, messages: 9804, skipped: [] })).toBe('212 conversations, 9,804 messages imported.');
    expect(
      describeImportSummary({
        conversations: 1,
        messages: 1,
        skipped: [
          { title: 'Lost thread', reason: 'its current_node "gone" is not in its mapping' },
          { title: 'Hidden', reason: 'it holds no message a person wrote or read' },
        ],
      }),
    ).toBe(
      '1 conversation, 1 message imported; 2 skipped: "Lost thread" (its current_node "gone" is not in its mapping); "Hidden" (it holds no message a person wrote or read).',
    );
  });
});
