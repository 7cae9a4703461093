import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BRAINS, type BrainId } from '../../../src-shared/brains';

/** The model ids a union type in an installed SDK's type definitions lists (`export type Model = 'a' | 'b' | …`). */
function sdkModelIds(packageName: string, file: string, typeName: string): string[] {
  // The package's entry point, then up to the folder holding its package.json (whose subpath it does not export).
  let packageDir = dirname(createRequire(import.meta.url).resolve(packageName));
  while (!existsSync(join(packageDir, 'package.json'))) packageDir = dirname(packageDir);
  const source = readFileSync(join(packageDir, file), 'utf8');
  const line = source.split('\n').find((candidate) => candidate.startsWith(`export type ${typeName} = `));
  if (line === undefined) throw new Error(`${packageName} has no type ${typeName} in ${file}`);
  return [...line.matchAll(/'([^']+)'/g)].map((match) => match[1]!);
}

describe("each brain's default model", () => {
  it("offers defaults the installed SDKs list, where an SDK lists its provider's models", () => {
    const listed: Partial<Record<BrainId, string[]>> = {
      claude: sdkModelIds('@anthropic-ai/sdk', 'resources/messages/messages.d.ts', 'Model'),
      codex: sdkModelIds('openai', 'resources/shared.d.ts', 'ChatModel'),
    };
    for (const [brain, models] of Object.entries(listed) as [BrainId, string[]][]) {
      expect(models.length, brain).toBeGreaterThan(5);
      expect(models, brain).toContain(BRAINS[brain].defaultModel);
    }
  });

});
