/** (contract) How a refused command crosses the boundary: as a value in the envelope, rethrown with its code. */

/** Every transport answers with this envelope, so errors cross the boundary as values and are rethrown. */
export type CommandResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } };

/** A command refused by the main process, rethrown on the renderer side with its code. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
