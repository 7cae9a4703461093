import type { Api } from '../../src-shared/api';

let installedApi: Api | null = null;

/** Set once at start-up (and by tests) to the host's Api. */
export function installApi(api: Api): void {
  installedApi = api;
}

export function api(): Api {
  if (installedApi === null) throw new Error('The Api is used before start-up installed it.');
  return installedApi;
}

/** The sentence to show a person for a failed command. */
export function errorText(error: unknown): string {
  // Errors cross the Electron bridge as plain Errors, so only the message is relied on.
  if (error instanceof Error && error.message !== '') return error.message;
  return 'Something went wrong.';
}
