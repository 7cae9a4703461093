import { describe, expect, it } from 'vitest';
import { safeLinkUrl } from './safe-url';

describe('safeLinkUrl', () => {
  it('keeps http, https and mailto URLs', () => {
    expect(safeLinkUrl('https://example.com/a?b=c#d')).toBe('https://example.com/a?b=c#d');
    expect(safeLinkUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080/');
    expect(safeLinkUrl(' mailto:someone@example.com ')).toBe('mailto:someone@example.com');
  });

  it('refuses script, data, file and custom protocols, however they are spelled', () => {
    expect(safeLinkUrl('javascript:alert(1)')).toBeNull();
    expect(safeLinkUrl('JaVaScRiPt:alert(1)')).toBeNull();
    expect(safeLinkUrl(' java\tscript:alert(1)')).toBeNull();
    expect(safeLinkUrl('data:text/html,<script>alert(1)</script>')).toBeNull();
    expect(safeLinkUrl('file:///etc/passwd')).toBeNull();
    expect(safeLinkUrl('vbscript:msgbox(1)')).toBeNull();
    expect(safeLinkUrl('anybrain://settings')).toBeNull();
  });

  it('refuses relative URLs and fragments', () => {
    expect(safeLinkUrl('/api/command/stop')).toBeNull();
    expect(safeLinkUrl('#user-content-fn-1')).toBeNull();
    expect(safeLinkUrl('')).toBeNull();
  });
});
