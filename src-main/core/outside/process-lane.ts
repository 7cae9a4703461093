/**
 * A lane for calls that may hang inside native code: a helper process of their own, spoken to in JSON lines.
 *
 * Invariant: a call that hangs holds nothing of this process. A thread cannot be freed from a blocking native call:
 * one of libuv's pool threads (shared with the store's log syncs and the window's file reads) stays blocked, a worker
 * thread cannot be terminated, and Node joins both before it exits, so a hung call would hang the exit too. A process
 * can always be killed.
 *
 * The helper answers each request line `{"id":N,"request":…}` with one line `{"id":N,"ok":true,"value":…}` or
 * `{"id":N,"ok":false,"message":"…"}` (see secrets/keychain-helper.ts). The lane keeps no time limit of its own: each
 * caller waits as long as its call deserves and then `reset`s the lane, which kills the helper.
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A call given up on: the helper stopped, was killed by `reset`, or the lane is closed. */
export class LaneEndedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LaneEndedError';
  }
}

interface PendingCall {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

type HelperLine = { readonly id: number; readonly ok: true; readonly value: unknown } | { readonly id: number; readonly ok: false; readonly message: string };

const STDERR_TAIL_CHARACTERS = 2_000;

export class ProcessLane<Request> {
  private helper: ChildProcess | null = null;
  private readonly pending = new Map<number, PendingCall>();
  private nextId = 1;
  private stderrTail = '';
  private disposed = false;

  /**
   * @param name how the lane is named in errors ("the system keychain")
   * @param start starts the helper with piped stdin and stdout
   */
  constructor(
    private readonly name: string,
    private readonly start: () => ChildProcess,
  ) {}

  /**
   * Sends `request`; the promise settles with the helper's answer whenever it comes, or rejects with `LaneEndedError`
   * when the helper stops or is given up on first. Callers keep their own time limits and `reset` to give up.
   */
  call<Answer>(request: Request): Promise<Answer> {
    if (this.disposed) return Promise.reject(new LaneEndedError(`${this.name} is closed`));
    const id = this.nextId++;
    const answer = new Promise<Answer>((resolve, reject) => this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject }));
    try {
      this.running().stdin!.write(`${JSON.stringify({ id, request })}\n`);
    } catch (error) {
      this.fail(id, new LaneEndedError(`${this.name} could not be asked: ${error instanceof Error ? error.message : String(error)}`));
    }
    return answer;
  }

  /** Kills the helper and fails every call still waiting; the next call starts a new helper. */
  reset(): void {
    const helper = this.helper;
    this.helper = null;
    if (helper !== null) {
      helper.removeAllListeners('exit');
      helper.kill('SIGKILL');
    }
    this.failAll(new LaneEndedError(`${this.name} was given up on`));
  }

  dispose(): void {
    this.disposed = true;
    this.reset();
  }

  private running(): ChildProcess {
    if (this.helper !== null) return this.helper;
    this.stderrTail = '';
    const helper = this.start();
    this.helper = helper;
    // Neither the helper nor its pipes keep this process alive: a caller waiting on a call holds its own timer.
    helper.unref();
    for (const stream of [helper.stdin, helper.stdout, helper.stderr]) (stream as unknown as { unref?: () => void } | null)?.unref?.();
    helper.stdin?.on('error', () => {});
    helper.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL_CHARACTERS);
    });
    if (helper.stdout) {
      createInterface({ input: helper.stdout }).on('line', (line) => this.answered(line));
    }
    helper.once('error', (error) => this.ended(helper, `could not start: ${error.message}`));
    helper.once('exit', (code, signal) => this.ended(helper, `stopped (${signal ?? `exit code ${code}`})`));
    return helper;
  }

  private answered(line: string): void {
    let parsed: HelperLine;
    try {
      parsed = JSON.parse(line) as HelperLine;
    } catch {
      return;
    }
    const call = this.pending.get(parsed.id);
    if (call === undefined) return;
    this.pending.delete(parsed.id);
    if (parsed.ok) call.resolve(parsed.value);
    else call.reject(new Error(parsed.message));
  }

  private ended(helper: ChildProcess, how: string): void {
    if (this.helper !== helper) return;
    this.helper = null;
    const said = this.stderrTail.trim().split('\n').at(-1) ?? '';
    this.failAll(new LaneEndedError(`${this.name}'s helper ${how}${said === '' ? '' : `: ${said}`}`));
  }

  private fail(id: number, error: Error): void {
    const call = this.pending.get(id);
    this.pending.delete(id);
    call?.reject(error);
  }

  private failAll(error: Error): void {
    const calls = [...this.pending.values()];
    this.pending.clear();
    for (const call of calls) call.reject(error);
  }
}
