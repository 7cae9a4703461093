import { describe, expect, it } from 'vitest';
import { base64ByteLength } from '../../../../src-shared/tool-images';
import { declaredPngFile } from '../../attachments/test-files';
import { EMPTY_OUTPUT, toToolResult } from './result';

describe('toToolResult', () => {
  it('joins text parts, keeps images whole beside them, and summarises the rest', () => {
    const png = Buffer.alloc(1234, 7).toString('base64');
    const result = toToolResult({
      content: [
        { type: 'text', text: 'first' },
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'audio', data: Buffer.alloc(10).toString('base64'), mimeType: 'audio/wav' },
        { type: 'resource_link', name: 'Notes', uri: 'file:///notes.md', mimeType: 'text/markdown' },
        { type: 'resource', resource: { uri: 'demo://a', text: 'inline text' } },
        { type: 'resource', resource: { uri: 'demo://b', blob: Buffer.alloc(5).toString('base64'), mimeType: 'application/zip' } },
      ],
    });
    expect(result).toEqual({
      output: [
        'first',
        '[audio: audio/wav, 10 bytes]',
        '[resource link: Notes <file:///notes.md>, text/markdown]',
        '[resource: demo://a]\ninline text',
        '[resource: demo://b, application/zip, 5 bytes]',
      ].join('\n'),
      isError: false,
      images: [{ mimeType: 'image/png', data: png }],
    });
  });

  it('answers with the images alone when a result holds nothing else', () => {
    const gif = Buffer.from('GIF89a').toString('base64');
    expect(toToolResult({ content: [{ type: 'image', data: gif, mimeType: 'image/gif' }] })).toEqual({
      output: '',
      isError: false,
      images: [{ mimeType: 'image/gif', data: gif }],
    });
  });

  it('keeps no image that declares more than 50 megapixels: the brain reads why instead', () => {
    const bomb = declaredPngFile(20_000, 20_000).toString('base64');
    expect(toToolResult({ content: [{ type: 'text', text: 'Rendered.' }, { type: 'image', mimeType: 'image/png', data: bomb }] })).toEqual({
      output: "Rendered.\nThe tool's image is 20,000 × 20,000 pixels (400 megapixels); Anybrain takes images up to 50 megapixels. Scale it down and attach it again.",
      isError: false,
    });
  });

  it('carries the error flag', () => {
    expect(toToolResult({ content: [{ type: 'text', text: 'bad input' }], isError: true })).toEqual({ output: 'bad input', isError: true });
    expect(toToolResult({ content: [], isError: true }).isError).toBe(true);
  });

  it('falls back to structured content, then to the old toolResult field, then to a placeholder', () => {
    expect(toToolResult({ content: [], structuredContent: { total: 3 } }).output).toBe('{"total":3}');
    expect(toToolResult({ toolResult: 'done' }).output).toBe('done');
    expect(toToolResult({ content: [] })).toEqual({ output: EMPTY_OUTPUT, isError: false });
  });
});

describe('base64ByteLength', () => {
  it('counts decoded bytes', () => {
    for (const size of [0, 1, 2, 3, 4, 1000, 1001]) expect(base64ByteLength(Buffer.alloc(size).toString('base64'))).toBe(size);
  });
});
