/** What outside Anybrain is not answering (the keychain, the disk, an MCP server, a provider), as the host reports it. */
import type { NotAnsweringView } from '../../src-shared/api';

export interface OutsideSlice {
  readonly notAnswering: readonly NotAnsweringView[];
  /** Reports the person closed: `key` and message, so a new message about the same thing shows again. */
  readonly dismissedNotAnswering: readonly string[];
}

export const initialOutsideSlice: OutsideSlice = { notAnswering: [], dismissedNotAnswering: [] };

function reportId(entry: NotAnsweringView): string {
  return `${entry.key}\n${entry.message}`;
}

export function applyNotAnswering(state: OutsideSlice, list: readonly NotAnsweringView[]): OutsideSlice {
  const current = new Set(list.map(reportId));
  return { notAnswering: list, dismissedNotAnswering: state.dismissedNotAnswering.filter((id) => current.has(id)) };
}

export function dismissNotAnswering(state: OutsideSlice, entry: NotAnsweringView): Pick<OutsideSlice, 'dismissedNotAnswering'> {
  return { dismissedNotAnswering: [...state.dismissedNotAnswering, reportId(entry)] };
}

/** The reports still shown. */
export function shownNotAnswering(state: OutsideSlice): readonly NotAnsweringView[] {
  const dismissed = new Set(state.dismissedNotAnswering);
  return state.notAnswering.filter((entry) => !dismissed.has(reportId(entry)));
}
