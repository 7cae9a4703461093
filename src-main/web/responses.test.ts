import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from './responses';

function directive(policy: string, name: string): string | undefined {
  return policy
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `));
}

describe('the web host content security policy', () => {
  it('is exactly the app, with images also from data: and blob: URLs', () => {
    expect(SECURITY_HEADERS['Content-Security-Policy']).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; " +
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
  });

  it("allows the same images as the page's own meta policy, which the browser enforces as well", () => {
    const page = readFileSync(join(__dirname, '..', '..', 'src-renderer', 'index.html'), 'utf8');
    const metaPolicy = /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(page)?.[1] ?? '';
    expect(directive(metaPolicy, 'img-src')).toBe("img-src 'self' data: blob:");
    expect(directive(SECURITY_HEADERS['Content-Security-Policy'] ?? '', 'img-src')).toBe(directive(metaPolicy, 'img-src'));
  });
});
