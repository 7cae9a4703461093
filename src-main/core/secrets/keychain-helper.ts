/**
 * The keychain's helper process: reads one request per line on stdin and answers each with one line on stdout, in
 * order (the protocol of outside/process-lane.ts). Its calls block this process only: a keychain waiting on an unlock
 * prompt nobody answers holds no thread of Anybrain's, and Anybrain kills this process when it gives up.
 */
import { createInterface } from 'node:readline';
import { Entry } from '@napi-rs/keyring';
import type { KeychainRequest } from './keychain-requests';

// On Linux the library falls back to the kernel keyring when no Secret Service answers; that keyring forgets
// everything at logout, so a key stored there would silently vanish. Only a Secret Service counts.
const options = process.platform === 'linux' ? { linux: { store: 'secret-service' as const } } : undefined;

function run(request: KeychainRequest): unknown {
  switch (request.op) {
    case 'read':
      return Object.fromEntries(request.accounts.map((account) => [account, new Entry(request.service, account, options).getPassword() ?? null]));
    case 'set':
      new Entry(request.service, request.account, options).setPassword(request.secret);
      return null;
    case 'remove':
      return new Entry(request.service, request.account, options).deleteCredential();
    default: {
      const unknown: never = request;
      throw new Error(`unknown keychain request ${JSON.stringify(unknown)}`);
    }
  }
}

const requests = createInterface({ input: process.stdin });
// Anybrain closed the pipe (it quit, or gave up on this helper): nothing more will be asked.
requests.on('close', () => process.exit(0));
requests.on('line', (line) => {
  let id: unknown = null;
  try {
    const parsed = JSON.parse(line) as { id: number; request: KeychainRequest };
    id = parsed.id;
    process.stdout.write(`${JSON.stringify({ id, ok: true, value: run(parsed.request) })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ id, ok: false, message: error instanceof Error ? error.message : String(error) })}\n`);
  }
});
