import { describe, expect, it } from 'vitest';
import type { TranscriptAttachment, TranscriptMessage, TranscriptV1 } from '../../../src-shared/transcript';
import {
  attachmentFileNames,
  attachmentFiles,
  attachmentPlacement,
  attachmentsFolderOf,
  isAttachmentPath,
  markdownLinkPath,
  plainAttachmentName,
} from './export-attachments';

const AT = '2026-12-01T12:00:00.000Z';

function attachment(name: string, sha: string, data?: string): TranscriptAttachment {
  return { name, media_type: 'image/png', size: 3, sha256: sha.repeat(64), ...(data === undefined ? {} : { data_base64: data }) };
}

function transcriptWith(...attachmentLists: TranscriptAttachment[][]): TranscriptV1 {
  const messages: TranscriptMessage[] = attachmentLists.map((attachments, index) => ({
    id: `u${index}`, turn_id: `t${index}`, role: 'user', kind: 'chat', text: 'See.', created_at: AT, attachments,
  }));
  return { format: 'anybrain.transcript', version: 1, conversation: { id: 'c', title: 'Photos', created_at: AT }, messages };
}

describe('where the Markdown export writes attachments', () => {
  it('names the folder after the exported file', () => {
    expect(attachmentsFolderOf('Photos.md')).toBe('Photos.attachments');
    expect(attachmentsFolderOf('photos-01jexport.md')).toBe('photos-01jexport.attachments');
  });

  it('makes each attached name one plain file name Windows, macOS and Linux accept', () => {
    expect(plainAttachmentName('photo.png')).toBe('photo.png');
    expect(plainAttachmentName('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(plainAttachmentName('a:b?*"<>|.txt')).toBe('a_b______.txt');
    expect(plainAttachmentName('CON.txt')).toBe('_CON.txt');
    expect(plainAttachmentName('.hidden')).toBe('hidden');
    expect(plainAttachmentName('...')).toBe('attachment');
    expect(plainAttachmentName('line\nbreak.md')).toBe('line_break.md');
  });

  it('gives the same bytes under the same name one file, and different files under one name (any case) their own', () => {
    const transcript = transcriptWith(
      [attachment('photo.png', 'a', 'AAAA'), attachment('Photo.PNG', 'b', 'BBBB')],
      [attachment('photo.png', 'a', 'AAAA'), attachment('photo.png', 'c', 'CCCC'), attachment('left-out.png', 'd')],
    );
    expect([...attachmentFileNames(transcript).values()]).toEqual(['photo.png', 'Photo-2.PNG', 'photo-3.png']);
    expect(attachmentFiles(transcript, attachmentPlacement(transcript, 'Photos.md'))).toEqual([
      { path: 'Photos.attachments/photo.png', dataBase64: 'AAAA' },
      { path: 'Photos.attachments/Photo-2.PNG', dataBase64: 'BBBB' },
      { path: 'Photos.attachments/photo-3.png', dataBase64: 'CCCC' },
    ]);
  });

  it('links a path with spaces and brackets percent-encoded, so it can neither break nor end the link', () => {
    expect(markdownLinkPath('My chat (1).attachments/a b[2].png')).toBe('My%20chat%20%281%29.attachments/a%20b%5B2%5D.png');
  });

  it('takes only an attachments folder and one plain file in it as a path to write', () => {
    expect(isAttachmentPath('Photos.attachments/photo.png')).toBe(true);
    expect(isAttachmentPath('Photos.attachments/../x')).toBe(false);
    expect(isAttachmentPath('Photos.attachments/a/b.png')).toBe(false);
    expect(isAttachmentPath('elsewhere/photo.png')).toBe(false);
    expect(isAttachmentPath('photo.png')).toBe(false);
    expect(isAttachmentPath('/Photos.attachments/photo.png')).toBe(false);
  });
});
