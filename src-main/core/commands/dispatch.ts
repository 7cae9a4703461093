/**
 * The one entry every transport reaches (IPC, HTTP, the command line): validate with the command's zod schema, run its
 * handler, and answer with an envelope that never throws.
 */
import { redactKeys } from '../secrets/redact';
import { ApiError, commandSchemas, isCommandName, type CommandHandlers, type CommandResult } from '../../../src-shared/api';
import { storeRefusalOf, storeRefusalMessage } from '../store/write-failure';
import { ConversationNotFoundError, TurnNotFoundError } from '../transcripts/export';

/** A message for errors that are not the user's doing, without leaking internals or keys. */
function describeUnexpected(error: unknown): { code: string; message: string } {
  const refusal = storeRefusalOf(error);
  if (refusal !== null) return { code: refusal, message: storeRefusalMessage(refusal) };
  if (error instanceof ConversationNotFoundError || error instanceof TurnNotFoundError) return { code: 'not-found', message: error.message };
  return { code: 'internal', message: `Something went wrong: ${redactKeys(error instanceof Error ? error.message : String(error))}` };
}

export async function dispatchCommand(handlers: CommandHandlers, name: string, rawInput: unknown): Promise<CommandResult<unknown>> {
  if (!isCommandName(name)) return { ok: false, error: { code: 'unknown-command', message: `Unknown command ${JSON.stringify(name)}.` } };
  const parsed = commandSchemas[name].safeParse(rawInput ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length ? issue.path.join('.') : 'input';
    return { ok: false, error: { code: 'invalid-input', message: `Invalid ${name} input at ${where}: ${issue?.message ?? 'invalid'}` } };
  }
  try {
    const handler = handlers[name] as (input: unknown) => unknown;
    return { ok: true, value: await handler(parsed.data) };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error: { code: error.code, message: error.message } };
    return { ok: false, error: describeUnexpected(error) };
  }
}
