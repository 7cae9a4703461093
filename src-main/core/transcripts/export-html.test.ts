import { describe, expect, it } from 'vitest';
import type { TranscriptAttachment, TranscriptMessage, TranscriptV1 } from '../../../src-shared/transcript';
import { EXPORT_CSP, htmlOf } from './export-html';

const AT = '2026-12-01T12:00:00.000Z';
const OPTIONS = { includeTools: true, includeReasoning: false, branches: 'live' } as const;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function transcriptOf(attachments: TranscriptAttachment[], replyText = 'A cat.'): TranscriptV1 {
  const messages: TranscriptMessage[] = [
    { id: 'u', turn_id: 't', role: 'user', kind: 'chat', text: 'What is this?', created_at: AT, attachments },
    {
      id: 'a', turn_id: 't', role: 'assistant', kind: 'chat', text: replyText, status: 'complete', brain: 'gemini',
      model_requested: 'gemini-3.1-pro-preview', model_responded: 'gemini-3.1-pro-preview', created_at: AT,
    },
  ];
  return { format: 'anybrain.transcript', version: 1, conversation: { id: 'c', title: 'A photo', created_at: AT }, messages };
}

/** Every `src` of an image in the page. */
function imageSources(html: string): string[] {
  return [...html.matchAll(/<img\b[^>]*\bsrc="([^"]*)"/g)].map((match) => match[1]!);
}

describe('attachments in the HTML export', () => {
  it('shows an embedded image as a data: URL inside the page, and the CSP lets only data: images load', () => {
    const html = htmlOf(transcriptOf([{ name: 'cat <1>.png', media_type: 'image/png', size: 70, sha256: 'a'.repeat(64), data_base64: PNG }]), OPTIONS);
    expect(html).toContain(
      `<div class="attachments"><figure class="attachment-image"><img src="data:image/png;base64,${PNG}" alt="cat &#60;1&#62;.png"><figcaption>cat &#60;1&#62;.png</figcaption></figure></div>`,
    );
    expect(EXPORT_CSP).toBe("default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'");
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">`);
  });

  it('names a PDF, a text file and an image it does not carry, and never shows an SVG as an image', () => {
    const html = htmlOf(
      transcriptOf([
        { name: 'report.pdf', media_type: 'application/pdf', size: 12_345, sha256: 'b'.repeat(64), data_base64: 'JVBERi0=' },
        { name: 'photo.png', media_type: 'image/png', size: 70, sha256: 'a'.repeat(64) },
        { name: 'drawing.svg', media_type: 'image/svg+xml', size: 4, sha256: 'c'.repeat(64), data_base64: 'PHN2Zz4=' },
      ]),
      OPTIONS,
    );
    expect(imageSources(html)).toEqual([]);
    expect(html).toContain(
      '<p class="attachment-file"><span class="attachment-name">report.pdf</span> <span class="note">(application/pdf, 12,345 bytes)</span></p>',
    );
    expect(html).toContain(
      '<p class="attachment-file"><span class="attachment-name">photo.png</span> <span class="note">(image/png, 70 bytes; not included in this export)</span></p>',
    );
    expect(html).not.toContain('PHN2Zz4=');
  });

  it("lets no data: URL from a model's words into the page: only the export's own image elements carry one", () => {
    const reply = [
      `![pixel](data:image/png;base64,${PNG})`,
      '',
      `<img src="data:image/png;base64,${PNG}">`,
      '',
      `[open](data:text/html;base64,PHNjcmlwdD4=)`,
    ].join('\n');
    const html = htmlOf(transcriptOf([{ name: 'cat.png', media_type: 'image/png', size: 70, sha256: 'a'.repeat(64), data_base64: PNG }], reply), OPTIONS);
    expect(imageSources(html)).toEqual([`data:image/png;base64,${PNG}`]);
    expect(html.match(/<img\b/g)).toHaveLength(1);
    expect(html).not.toContain('href="data:');
  });
});
