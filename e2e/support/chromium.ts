import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

/** Chromium runs here without a sandbox (root) and without reaching for the network it does not have. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const CHROMIUM_MISSING =
  'No Chromium found for the browser tests. Install one (Debian/Ubuntu: `sudo apt-get install -y chromium`), ' +
  'or point CHROMIUM_PATH at a Chromium or Chrome binary.';

/** `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`, else a browser Playwright downloaded itself. */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  for (const candidate of candidates) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  try {
    const bundled = chromium.executablePath();
    if (bundled && existsSync(bundled)) return bundled;
  } catch {
    // Playwright throws when it has no browser of its own.
  }
  return undefined;
}
