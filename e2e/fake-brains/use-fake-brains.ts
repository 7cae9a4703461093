/**
 * One fake brains server for a vitest file: started before its first test, reset before each test, closed after the
 * last. Import only from tests.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startFakeBrains, type FakeBrains, type FakeBrainsOptions } from './server';

export function useFakeBrains(options: FakeBrainsOptions = {}): FakeBrains {
  let server: FakeBrains | null = null;
  beforeAll(async () => {
    server = await startFakeBrains(options);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    server?.reset();
  });
  const started = (): FakeBrains => {
    if (server === null) throw new Error('The fake brains start in beforeAll; use them inside a test or a later hook.');
    return server;
  };
  return {
    get url() {
      return started().url;
    },
    baseUrlFor: (brain) => started().baseUrlFor(brain),
    requests: () => started().requests(),
    violations: () => started().violations(),
    reset: () => started().reset(),
    close: () => started().close(),
  };
}
