#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../out/cli/anybrain.js', import.meta.url));
if (!existsSync(entry)) {
  console.error('anybrain: the command line is not built yet. Run `npm run build` in the Anybrain folder, then try again.');
  process.exit(2);
}
await import(entry);
