import { describe, expect, it } from 'vitest';
import { attachmentLink, parseAttachmentLink } from './attachment-link';

const SHA256 = 'a'.repeat(64);

describe('attachment links', () => {
  it('round-trips the sha256 and a name with any characters', () => {
    const link = attachmentLink({ sha256: SHA256, name: 'Q3 report & notes?.pdf' });
    expect(link).toBe(`anybrain-attachment:${SHA256}?name=Q3%20report%20%26%20notes%3F.pdf`);
    expect(parseAttachmentLink(link)).toEqual({ sha256: SHA256, name: 'Q3 report & notes?.pdf' });
  });

  it.each([
    `https://example.com/${SHA256}`,
    `anybrain-attachment:${'A'.repeat(64)}`,
    `anybrain-attachment:${SHA256.slice(1)}`,
    `anybrain-attachment:../../etc/passwd?name=x`,
    `anybrain-attachment:${SHA256}/../x?name=y`,
    '',
  ])('refuses %j', (url) => {
    expect(parseAttachmentLink(url)).toBeNull();
  });

  it('reads a link without a name as an empty name', () => {
    expect(parseAttachmentLink(`anybrain-attachment:${SHA256}`)).toEqual({ sha256: SHA256, name: '' });
  });
});
