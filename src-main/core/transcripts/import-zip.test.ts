import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { listConversations } from '../store/conversations';
import { openTestDatabase } from '../store/test-database';
import { chatGptExportToTranscripts } from './foreign/chatgpt';
import { claudeExportToTranscripts } from './foreign/claude';
import { importFile, type ForeignConverters } from './import-file';
import { inflateEntry, MAX_IMPORT_ENTRY_BYTES, MAX_IMPORT_INFLATED_BYTES, MAX_IMPORT_ZIP_ENTRIES, zipEntries } from './import-zip';
import { deflatedZeros, zipBomb, zipOf, zipOfManyEntries } from './testing/hostile-zips';

const CONVERTERS: ForeignConverters = { chatgpt: chatGptExportToTranscripts, claude: claudeExportToTranscripts };
const ignoreProgress = (): void => {};
const MIB = 1024 * 1024;
const ENTRY_REFUSAL = 'conversations.json inflates past 500 MiB (the limit for one file in an import): the file was not imported.';

const oneConversation = JSON.stringify([
  {
    title: 'Kept',
    create_time: 1_700_000_000,
    current_node: 'a',
    mapping: {
      u: { id: 'u', parent: null, children: ['a'], message: { id: 'u', author: { role: 'user' }, content: { content_type: 'text', parts: ['q'] } } },
      a: { id: 'a', parent: 'u', children: [], message: { id: 'a', author: { role: 'assistant' }, content: { content_type: 'text', parts: ['a'] } } },
    },
  },
]);

/** A store holding one conversation already, so a refusal can be seen to lose nothing. */
async function storeWithOneConversation() {
  const db = openTestDatabase();
  await importFile(db, zipSync({ 'conversations.json': strToU8(oneConversation) }), CONVERTERS, ignoreProgress);
  return db;
}

describe('bounded zip inflation', () => {
  it('has limits a real export fits in: a file under the longest string V8 makes, and room for several shards', () => {
    expect([MAX_IMPORT_ENTRY_BYTES, MAX_IMPORT_INFLATED_BYTES, MAX_IMPORT_ZIP_ENTRIES]).toEqual([500 * MIB, 1024 * MIB, 100_000]);
  });

  it('refuses a 2 MB zip whose conversations.json inflates to 2 GiB while inflating it, storing nothing and keeping the process', async () => {
    const db = await storeWithOneConversation();
    const bomb = zipBomb(2048 * MIB, 1024);
    expect(bomb.length).toBeLessThan(3 * MIB);
    const inflated: number[] = [];
    await expect(importFile(db, bomb, CONVERTERS, ignoreProgress, undefined, (bytes) => inflated.push(bytes))).rejects.toThrow(ENTRY_REFUSAL);
    // Stopped at the limit, not at the end of the 2 GiB.
    expect(inflated.at(-1)!).toBeLessThanOrEqual(MAX_IMPORT_ENTRY_BYTES + 16 * 1024 * 1032);
    expect(listConversations(db).map((conversation) => conversation.title)).toEqual(['Kept']);
  });

  it('refuses before inflating anything an entry whose directory claims more than the limit, even if its data is small', async () => {
    const db = await storeWithOneConversation();
    const claimsTooMuch = zipOf([{ name: 'conversations.json', data: strToU8(oneConversation), method: 0, declaredSize: MAX_IMPORT_ENTRY_BYTES + 1 }]);
    await expect(importFile(db, claimsTooMuch, CONVERTERS, ignoreProgress)).rejects.toThrow(ENTRY_REFUSAL);
    const shards = zipOf(
      ['conversations-000.json', 'conversations-001.json', 'conversations-002.json'].map((name) => ({ name, data: strToU8('[]'), method: 0 as const, declaredSize: 400 * MIB })),
    );
    await expect(importFile(db, shards, CONVERTERS, ignoreProgress)).rejects.toThrow(
      "The zip's conversations inflate past 1 GiB together (the limit for one import): the file was not imported.",
    );
    expect(listConversations(db)).toHaveLength(1);
  });

  it('counts every shard against the limit for the whole import while inflating, whatever the directory claims', () => {
    const zip = zipOf([{ name: 'conversations-001.json', data: deflatedZeros(16 * MIB), method: 8, declaredSize: 10 }]);
    const budget = { inflated: MAX_IMPORT_INFLATED_BYTES - MIB };
    expect(() => inflateEntry(zip, zipEntries(zip)[0]!, budget)).toThrow(
      "The zip's conversations inflate past 1 GiB together (the limit for one import): the file was not imported.",
    );
  });

  it('refuses a zip listing more entries than an import takes, and reads one at the limit', async () => {
    const db = await storeWithOneConversation();
    await expect(importFile(db, zipOfManyEntries(MAX_IMPORT_ZIP_ENTRIES + 1, strToU8(oneConversation)), CONVERTERS, ignoreProgress)).rejects.toThrow(
      'The zip lists 100,001 files, more than 100,000 (the limit for an import): the file was not imported.',
    );
    expect(listConversations(db)).toHaveLength(1);
    const outcome = await importFile(db, zipOfManyEntries(MAX_IMPORT_ZIP_ENTRIES, strToU8(oneConversation)), CONVERTERS, ignoreProgress);
    expect(outcome.conversationIds).toHaveLength(1);
  });

  it('refuses a deflated entry that ends before its data does, or a method it cannot read', async () => {
    const db = openTestDatabase();
    const cut = deflatedZeros(16 * MIB).subarray(0, 100);
    await expect(importFile(db, zipOf([{ name: 'conversations.json', data: cut, method: 8, declaredSize: 10 }]), CONVERTERS, ignoreProgress)).rejects.toThrow(
      /^The zip cannot be read \(conversations\.json: /,
    );
    const bzip = zipOf([{ name: 'conversations.json', data: strToU8('[]'), method: 12 as 8, declaredSize: 2 }]);
    await expect(importFile(db, bzip, CONVERTERS, ignoreProgress)).rejects.toThrow(
      'conversations.json in the zip is compressed with method 12, which Anybrain cannot read. Nothing was imported.',
    );
  });
});
