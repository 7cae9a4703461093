import { describe, expect, it } from 'vitest';
import { MAX_COMMAND_BODY_BYTES, MAX_IMPORT_CONTENT_LENGTH, commandSchemas } from './api';
import { ATTACHMENT_SIZE_LIMITS } from './attachments';

describe('command size limits', () => {
  it('the import schema takes transcripts up to the one import limit', () => {
    expect(commandSchemas.importTranscript.shape.content.maxLength).toBe(MAX_IMPORT_CONTENT_LENGTH);
    expect(MAX_IMPORT_CONTENT_LENGTH).toBe(200_000_000);
  });

  it('importConversations takes text and base64 bytes up to the same limit, which a base64 body (one byte a character) fits', () => {
    expect(commandSchemas.importConversations.shape.content.unwrap().maxLength).toBe(MAX_IMPORT_CONTENT_LENGTH);
    expect(commandSchemas.importConversations.shape.contentBase64.unwrap().maxLength).toBe(MAX_IMPORT_CONTENT_LENGTH);
    const envelopeBytes = new TextEncoder().encode(JSON.stringify({ name: 'x'.repeat(500), contentBase64: '' })).length;
    expect(MAX_COMMAND_BODY_BYTES).toBeGreaterThanOrEqual(MAX_IMPORT_CONTENT_LENGTH + envelopeBytes);
  });

  it('the web host body limit holds the longest import of two-byte escaped text, with room for the envelope', () => {
    expect(MAX_COMMAND_BODY_BYTES).toBe(401_048_576);
    // Every character of this sample takes two bytes once JSON-escaped in UTF-8.
    const sample = '"\\\n\u00e9\u0416\ud83d\ude00';
    const envelopeBytes = new TextEncoder().encode(JSON.stringify({ content: '' })).length;
    const bytesPerCodeUnit = (new TextEncoder().encode(JSON.stringify({ content: sample })).length - envelopeBytes) / sample.length;
    expect(bytesPerCodeUnit).toBe(2);
    expect(MAX_COMMAND_BODY_BYTES).toBeGreaterThanOrEqual(MAX_IMPORT_CONTENT_LENGTH * bytesPerCodeUnit + envelopeBytes);
    // Decoding the largest body never exceeds V8's longest string (2^29 - 24 code units).
    expect(MAX_COMMAND_BODY_BYTES).toBeLessThan(2 ** 29 - 24);
  });

  it('addAttachment takes a PDF at its 20 MiB limit in base64, and the web host body holds it', () => {
    const base64Length = Math.ceil(ATTACHMENT_SIZE_LIMITS.pdf / 3) * 4;
    expect(commandSchemas.addAttachment.shape.dataBase64.maxLength).toBe(base64Length);
    expect(ATTACHMENT_SIZE_LIMITS.pdf).toBe(20 * 1024 * 1024);
    const envelopeBytes = new TextEncoder().encode(JSON.stringify({ name: 'x'.repeat(255), dataBase64: '' })).length;
    expect(MAX_COMMAND_BODY_BYTES).toBeGreaterThanOrEqual(base64Length + envelopeBytes);
  });
});
