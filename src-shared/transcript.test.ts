import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { transcriptSchema } from './transcript';

describe('the shipped JSON Schema of transcript v1', () => {
  it('is the one the contract generates (`npx vitest run src-shared/transcript.test.ts -u` writes it again)', async () => {
    const generated = z.toJSONSchema(transcriptSchema, { target: 'draft-2020-12', io: 'input' });
    await expect(`${JSON.stringify(generated, null, 2)}\n`).toMatchFileSnapshot('./transcript-v1.schema.json');
  });
});
