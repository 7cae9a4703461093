import { describe, expect, it } from 'vitest';
import { transcriptLines } from './summary-prompt';

describe('transcriptLines', () => {
  it('names the files a user attached, never their bytes, before the words', () => {
    expect(
      transcriptLines({
        messageId: 'u1',
        role: 'user',
        kind: 'chat',
        text: 'What do these show?',
        calls: [],
        attachments: [
          { name: 'photo.png', kind: 'image', mediaType: 'image/png', width: 1280, height: 720, data: 'iVBORw0KGgo=' },
          { name: 'report.pdf', kind: 'pdf', mediaType: 'application/pdf', width: null, height: null },
        ],
      }),
    ).toBe('User:\n  Attached image photo.png (1280x720)\n  Attached PDF report.pdf\n  What do these show?');
  });

  it('keeps a message without files on one line', () => {
    expect(transcriptLines({ messageId: 'u1', role: 'user', kind: 'chat', text: 'Hello', calls: [] })).toBe('User: Hello');
  });
});
