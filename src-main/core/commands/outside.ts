/** What outside Anybrain is not answering: for a window that opens after it was reported. */
import type { CommandDependencies, HandlerGroup } from './handlers';

export function outsideCommands({ notAnswering }: Pick<CommandDependencies, 'notAnswering'>) {
  return {
    listNotAnswering: () => notAnswering.list(),
  } satisfies HandlerGroup;
}
