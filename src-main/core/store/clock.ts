import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

/** Time-ordered ids: they insert about twice as fast as random ones and sort by creation. */
export function newId(): string {
  return nextUlid();
}

export function nowIso(): string {
  return new Date().toISOString();
}
