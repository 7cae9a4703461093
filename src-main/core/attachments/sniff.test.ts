import { describe, expect, it } from 'vitest';
import { ATTACHMENT_SIZE_LIMITS } from '../../../src-shared/attachments';
import { pdfPageCount, sniffAttachment } from './sniff';
import { gifFile, jpegFile, pdfFile, pngFile, webpFile } from './test-files';

describe('sniffAttachment', () => {
  it('reads each image kind and its size from the bytes', () => {
    expect(sniffAttachment('photo.png', pngFile(1280, 720))).toEqual({
      ok: true,
      attachment: { kind: 'image', mediaType: 'image/png', width: 1280, height: 720, pages: null },
    });
    expect(sniffAttachment('photo.jpg', jpegFile(640, 480))).toEqual({
      ok: true,
      attachment: { kind: 'image', mediaType: 'image/jpeg', width: 640, height: 480, pages: null },
    });
    expect(sniffAttachment('loop.gif', gifFile(32, 16))).toEqual({
      ok: true,
      attachment: { kind: 'image', mediaType: 'image/gif', width: 32, height: 16, pages: null },
    });
    expect(sniffAttachment('still.webp', webpFile(300, 200))).toEqual({
      ok: true,
      attachment: { kind: 'image', mediaType: 'image/webp', width: 300, height: 200, pages: null },
    });
  });

  it('takes the media type from the bytes, not the name: a PNG named .jpg is a PNG', () => {
    expect(sniffAttachment('photo.jpg', pngFile(2, 2))).toMatchObject({ ok: true, attachment: { mediaType: 'image/png' } });
  });

  it('reads a PDF and counts its pages', () => {
    expect(sniffAttachment('report.pdf', pdfFile())).toEqual({
      ok: true,
      attachment: { kind: 'pdf', mediaType: 'application/pdf', width: null, height: null, pages: 1 },
    });
    expect(pdfPageCount(Buffer.from('%PDF-1.7\n<< /Type /Pages /Kids [] /Count 12 >>'))).toBe(12);
    expect(pdfPageCount(Buffer.from('%PDF-1.7\nstream compressed endstream'))).toBeNull();
  });

  it('takes text and code files by name when their bytes read as text', () => {
    expect(sniffAttachment('notes.md', Buffer.from('# Notes\n'))).toEqual({
      ok: true,
      attachment: { kind: 'text', mediaType: 'text/markdown', width: null, height: null, pages: null },
    });
    expect(sniffAttachment('main.ts', Buffer.from('export const a = 1;\n'))).toMatchObject({ ok: true, attachment: { kind: 'text', mediaType: 'text/x-typescript' } });
    expect(sniffAttachment('Makefile', Buffer.from('all:\n\ttrue\n'))).toMatchObject({ ok: true, attachment: { kind: 'text', mediaType: 'text/plain' } });
  });

  it('refuses an empty file', () => {
    expect(sniffAttachment('empty.png', Buffer.alloc(0))).toEqual({
      ok: false,
      refusal: { code: 'attachment-empty', message: 'empty.png is empty (0 bytes), so there is nothing to attach. Choose the file again, or another one.' },
    });
  });

  it('refuses a name that claims another kind than the bytes hold', () => {
    expect(sniffAttachment('photo.png', Buffer.from('just words'))).toEqual({
      ok: false,
      refusal: {
        code: 'attachment-unsupported',
        message:
          'photo.png cannot be attached. Its name says an image, but its bytes are none of the kinds Anybrain takes. Anybrain takes PNG, JPEG, WebP and GIF images, PDFs, and plain text and code files.',
      },
    });
    expect(sniffAttachment('notes.txt', pngFile(2, 2))).toMatchObject({
      ok: false,
      refusal: { code: 'attachment-unsupported', message: expect.stringContaining('Its name says a text file, but its bytes are an image.') },
    });
    expect(sniffAttachment('report.pdf', pngFile(2, 2))).toMatchObject({ ok: false, refusal: { code: 'attachment-unsupported' } });
  });

  it('refuses binary bytes under a text name, and names Anybrain takes nothing by', () => {
    expect(sniffAttachment('notes.txt', Buffer.from([0x68, 0x00, 0x69]))).toMatchObject({ ok: false, refusal: { code: 'attachment-unsupported' } });
    expect(sniffAttachment('program.exe', Buffer.from('MZ\u0000\u0000'))).toMatchObject({ ok: false, refusal: { code: 'attachment-unsupported' } });
  });

  it('refuses SVG by name and by content', () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(sniffAttachment('logo.svg', svg)).toEqual({
      ok: false,
      refusal: { code: 'attachment-unsupported', message: 'logo.svg is an SVG drawing, which Anybrain does not attach. Export it as PNG and attach that.' },
    });
    expect(sniffAttachment('logo.txt', svg)).toMatchObject({ ok: false, refusal: { code: 'attachment-unsupported' } });
  });

  it('refuses a file over its kind\'s limit', () => {
    const large = Buffer.concat([pngFile(4, 4), Buffer.alloc(ATTACHMENT_SIZE_LIMITS.image)]);
    expect(sniffAttachment('huge.png', large)).toEqual({
      ok: false,
      refusal: { code: 'attachment-too-large', message: 'huge.png is 10 MB, over the 10 MB limit for an image. Attach a smaller file.' },
    });
    expect(sniffAttachment('long.txt', Buffer.alloc(ATTACHMENT_SIZE_LIMITS.text + 1, 0x61))).toMatchObject({ ok: false, refusal: { code: 'attachment-too-large' } });
  });

  it('refuses an image whose header or end cannot be read as corrupt', () => {
    const png = pngFile(64, 64);
    expect(sniffAttachment('cut.png', png.subarray(0, png.length - 20))).toEqual({
      ok: false,
      refusal: {
        code: 'attachment-corrupt',
        message: 'cut.png looks like PNG but its header or size cannot be read: the file is damaged or cut off. Save it again and attach the new copy.',
      },
    });
    const zeroWidth = Buffer.from(png);
    zeroWidth.writeUInt32BE(0, 16);
    expect(sniffAttachment('zero.png', zeroWidth)).toMatchObject({ ok: false, refusal: { code: 'attachment-corrupt' } });
    expect(sniffAttachment('cut.jpg', jpegFile(10, 10).subarray(0, 24))).toMatchObject({ ok: false, refusal: { code: 'attachment-corrupt' } });
    expect(sniffAttachment('cut.gif', gifFile(10, 10).subarray(0, 20))).toMatchObject({ ok: false, refusal: { code: 'attachment-corrupt' } });
    expect(sniffAttachment('cut.webp', webpFile(10, 10).subarray(0, 26))).toMatchObject({ ok: false, refusal: { code: 'attachment-corrupt' } });
  });
});
