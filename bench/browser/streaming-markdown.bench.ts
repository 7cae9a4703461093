/**
 * Streaming Markdown in the real window: the web host (`anybrain serve`, from `out/`) with the fake brains streaming
 * one long block (`[long:KIND:BYTES]`: prose, a list, a table, a code fence) in many small deltas, into an open
 * conversation in Chromium. Nothing is mocked between the provider stream and the DOM.
 *
 * Costs are the renderer main thread's CPU time, from a Chromium trace of each reply: the machine is shared, and a
 * task's wall-clock time there measures the other processes as much as the page (a 30 ms task took 430 ms).
 * - Per-delta cost: for each frame that changed the reply, the CPU time of every task on the renderer's main thread
 *   since the last such frame, that frame's task included (events read, deltas applied, React's render, in slices of
 *   its own while a reply streams, then style, layout and paint), placed by the reply's length after it; the first
 *   2 KB against the last 2 KB.
 * - Longest renderer task: the longest task on the renderer main thread while the reply streams.
 * - `message-delta` events reaching the renderer, counted in the event stream the page reads, as they arrive.
 *
 * This file reports; it never fails on time.
 */
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAIN_IDS, BRAINS } from '../../src-shared/brains';
import { longReply, type LongKind } from '../../e2e/fake-brains/script';
import { startFakeBrains, type FakeBrains } from '../../e2e/fake-brains/server';
import { startOwnHost, type OwnHost } from '../../e2e/support/own-host';
import { median } from '../replay/timing';
import { within } from '../support/bounded-wait';
import { isSmokeRun, reportScenario } from '../support/scenario-line';
import { formatDeltaArrivals } from '../support/window-state';
import { BROWSER_BOUNDS, closeChromium, describeWindowAndHost, gotoLaunchUrl, launchChromium } from './browser-host';

const SMOKE = isSmokeRun();
/** The issue's sizes: a 32 KB fence, and prose, a list and a table of the same length. */
const REPLY_BYTES = SMOKE ? 4_096 : 32_768;
const REPETITIONS = SMOKE ? 1 : 3;
/** Frames are compared between the first and the last this many characters of the reply. */
const WINDOW_CHARS = 2_048;
const KINDS: readonly LongKind[] = ['prose', 'list', 'table', 'code'];
/** A reply's whole stream, from Enter to `complete` (a 4 KB smoke reply took 1.0 to 1.3 s on this machine). */
const REPLY_BOUND_MS = 240_000;
/** A step of the window between replies: a click answered, a panel shown or hidden. */
const STEP_BOUND_MS = 60_000;

interface FrameSample {
  /** The CPU time of the frame's task and of every task since the previous frame that changed the reply. */
  readonly costMs: number;
  /** The reply's text length once the frame was drawn. */
  readonly replyLength: number;
}

interface StreamMeasurement {
  readonly frames: readonly FrameSample[];
  readonly longestTaskMs: number;
  readonly deltaEvents: number;
  /** From the first `message-delta` event to the last. */
  readonly deltaSpanMs: number;
}

interface PageProbe {
  deltaArrivals: number[];
  reset(): void;
}

/** The user-timing mark the page sets after each frame that changed the reply, with the reply's length. */
const FRAME_MARK = 'anybrain-frame:';

/** Runs in the page before its own scripts (an init script is not subject to the page's CSP). */
function installProbe(): void {
  const probe: PageProbe = {
    deltaArrivals: [],
    reset() {
      probe.deltaArrivals = [];
    },
  };
  Object.assign(window, { streamingProbe: probe });

  const replyLength = (): number =>
    Array.from(document.querySelectorAll('[data-testid="message"][data-role="assistant"] [data-testid="message-text"]')).at(-1)?.textContent?.length ?? 0;
  let frameSeen = false;
  let lastLength = 0;
  // A message posted from a frame's first animation callback runs once that frame is drawn.
  const frameEnd = new MessageChannel();
  frameEnd.port1.onmessage = () => {
    frameSeen = false;
    const length = replyLength();
    // FRAME_MARK, spelled out: this function runs in the page, apart from this module.
    if (length !== lastLength) performance.mark(`anybrain-frame:${length}`);
    lastLength = length;
  };
  const requestFrame = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) =>
    requestFrame((time) => {
      if (!frameSeen) {
        frameSeen = true;
        frameEnd.port2.postMessage(null);
      }
      callback(time);
    });

  const realFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const response = await realFetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.includes('/api/events') || response.body === null) return response;
    const decoder = new TextDecoder();
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const arrived = performance.now();
        const events = decoder.decode(chunk, { stream: true }).split('"type":"message-delta"').length - 1;
        for (let index = 0; index < events; index += 1) probe.deltaArrivals.push(arrived);
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counter), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly ts: number;
  readonly dur?: number;
  readonly tdur?: number;
  readonly args?: { readonly name?: string };
}

interface RendererCosts {
  readonly frames: FrameSample[];
  readonly longestTaskMs: number;
}

const cpuMs = (task: TraceEvent): number => (task.tdur ?? task.dur ?? 0) / 1_000;
const holds = (task: TraceEvent, event: TraceEvent): boolean => event.ts >= task.ts && event.ts <= task.ts + (task.dur ?? 0);

/** Frame costs and the longest task, in CPU time, from the trace of one reply. */
function rendererCosts(trace: Buffer): RendererCosts {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const marks = events.filter((event) => event.name.startsWith(FRAME_MARK)).sort((left, right) => left.ts - right.ts);
  const pid = marks[0]?.pid;
  const mainThread = events.find((event) => event.pid === pid && event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain')?.tid;
  const onMain = (event: TraceEvent) => event.pid === pid && event.tid === mainThread && event.ph === 'X';
  const tasks = events.filter((event) => onMain(event) && event.name === 'RunTask' && event.dur !== undefined).sort((left, right) => left.ts - right.ts);
  const frameStarts = events.filter((event) => onMain(event) && event.name === 'FireAnimationFrame');
  const frameTasks = tasks.filter((task) => frameStarts.some((frame) => holds(task, frame)));
  // The probe's own tasks (each reads the reply's length and sets a mark) are the harness's work, not the window's.
  const probeTasks = new Set(marks.flatMap((mark) => tasks.filter((task) => holds(task, mark))));
  const frames: FrameSample[] = [];
  let countedUntil = Number.NEGATIVE_INFINITY;
  for (const mark of marks) {
    const frameTask = frameTasks.findLast((task) => task.ts < mark.ts);
    if (frameTask === undefined || frameTask.ts <= countedUntil) continue;
    const work = tasks.filter((task) => task.ts > countedUntil && task.ts <= frameTask.ts && !probeTasks.has(task));
    frames.push({ costMs: work.reduce((sum, task) => sum + cpuMs(task), 0), replyLength: Number(mark.name.slice(FRAME_MARK.length)) });
    countedUntil = frameTask.ts;
  }
  return { frames, longestTaskMs: Math.max(0, ...tasks.map(cpuMs)) };
}

let fakeBrains: FakeBrains;
let host: OwnHost;
let browser: Browser;
let page: Page;

/** The page's probe: how many `message-delta` events it read, and how long ago the last one came. */
async function describeDeltaArrivals(): Promise<string> {
  const { count, msSinceLast } = await page.evaluate(() => {
    const arrivals = (window as unknown as { streamingProbe: PageProbe }).streamingProbe.deltaArrivals;
    const last = arrivals.at(-1);
    return { count: arrivals.length, msSinceLast: last === undefined ? null : performance.now() - last };
  });
  return formatDeltaArrivals(count, msSinceLast);
}

/** `wait` (a Playwright wait with its own timeout turned off), bounded by `withinMs`, failing with what the window and the host showed. */
function step<T>(wait: Promise<T>, what: string, withinMs = STEP_BOUND_MS): Promise<T> {
  return within(wait, { what, withinMs, observe: () => describeWindowAndHost(page, host, describeDeltaArrivals) });
}

beforeAll(async () => {
  fakeBrains = await startFakeBrains();
  const baseUrlEnv = Object.fromEntries(BRAIN_IDS.map((brain) => [BRAINS[brain].baseUrlVariable, fakeBrains.baseUrlFor(brain)]));
  host = await startOwnHost({ env: baseUrlEnv });
  browser = await launchChromium(['--js-flags=--expose-gc']);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(installProbe);
  await gotoLaunchUrl(page, host);
  await step(page.getByTestId('new-conversation').first().waitFor({ timeout: 0 }), 'the window never showed its New conversation button', BROWSER_BOUNDS.window);
  // Playwright compiles its polling script in the page on the first wait for a function (25 ms), here, not in a reply.
  await step(page.waitForFunction(() => true, undefined, { polling: 250, timeout: 0 }), 'the page never ran a first wait for a function');
  // Room for every bound above to lapse with its reason before the hook's own timeout would, without one.
}, 420_000);

afterAll(async () => {
  await closeChromium(browser);
  await host?.stop();
  await fakeBrains?.close();
});

/** Streams one long reply of `kind` into a new conversation and returns what the page measured. */
async function streamReply(kind: LongKind): Promise<StreamMeasurement> {
  // Wherever the page holds a long reply, it is read from the page's own world, never through a locator: a locator
  // queries every element of the page from Playwright's isolated world (it looks for shadow roots), and the wrappers
  // that world makes for a long reply's elements are freed after a full collection, in a task of their own of 20 to
  // 45 ms, landing in whichever reply streams next.
  await page.evaluate(() => document.querySelector<HTMLElement>('[data-testid="new-conversation"]')?.click());
  // The new conversation is open once the previous reply is gone: until then the composer, the keys and the wait for a
  // complete reply below would all reach the previous conversation (its reply is complete already).
  await step(
    page.waitForFunction(() => document.querySelector('[data-testid="message"]') === null, undefined, { polling: 100, timeout: 0 }),
    `the new conversation for the ${kind} reply never opened`,
  );
  await step(page.getByTestId('composer-input').waitFor({ timeout: 0 }), `the composer never showed for the ${kind} reply`);
  await page.getByTestId('brain-picker').click();
  await page.getByTestId('brain-switch-claude').click();
  await page.keyboard.press('Escape');
  await step(page.getByTestId('brain-picker-panel').waitFor({ state: 'hidden', timeout: 0 }), 'the brain picker never closed');
  // Typed before the trace starts: the locator's query runs Playwright's own script, which is not the window's work.
  await page.getByTestId('composer-input').fill(`Stream a long ${kind} [long:${kind}:${REPLY_BYTES}]`);
  await page.evaluate(() => (window as unknown as { streamingProbe: PageProbe }).streamingProbe.reset());
  // Each reply starts from a collected heap: the previous reply's elements, gone with its conversation, are otherwise
  // collected in this one, whose first full collection then frees them in a task of its own (20 to 35 ms). A plain
  // collection: the DevTools one also drops compiled code, and the reply's first frames would compile it again.
  // The collection's follow-up task is given time to run before the trace starts.
  await step(
    page.evaluate(async () => {
      (window as unknown as { gc: () => void }).gc();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }),
    'the page never finished a garbage collection',
  );
  await within(browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] }), {
    what: 'Chromium never started tracing',
    withinMs: BROWSER_BOUNDS.devtools,
  });
  // The composer still has the focus: the key goes to it without a query.
  await page.keyboard.press('Enter');
  // A locator would also check every frame, in the frames measured here. The bound arms one timer in this process and
  // reads the page only once it lapses.
  await step(
    page.waitForFunction(() => document.querySelector('[data-testid="message"][data-role="assistant"][data-status="complete"]') !== null, undefined, {
      polling: 250,
      timeout: 0,
    }),
    `the ${kind} reply never reached status complete`,
    REPLY_BOUND_MS,
  );
  const costs = rendererCosts(
    await within(browser.stopTracing(), { what: `Chromium never handed over the trace of the ${kind} reply`, withinMs: BROWSER_BOUNDS.devtools }),
  );
  const expected = longReply({ kind, bytes: REPLY_BYTES });
  const shownReplies = await page.evaluate(() =>
    Array.from(document.querySelectorAll('[data-testid="message"][data-role="assistant"] [data-testid="message-text"]'), (text) => text.textContent ?? ''),
  );
  expect(shownReplies).toHaveLength(1);
  // The rendered text drops the Markdown syntax: the last unit's numbered words show the whole reply arrived.
  const shown = shownReplies[0] ?? '';
  const lastUnit = [...expected.matchAll(/(?:Paragraph|item|name|line) \d+/g)].at(-1)?.[0] ?? '';
  expect(shown).toContain(lastUnit);
  const deltaArrivals = await page.evaluate(() => (window as unknown as { streamingProbe: PageProbe }).streamingProbe.deltaArrivals);
  expect(costs.frames.length).toBeGreaterThan(0);
  return {
    frames: costs.frames,
    longestTaskMs: costs.longestTaskMs,
    deltaEvents: deltaArrivals.length,
    deltaSpanMs: (deltaArrivals.at(-1) ?? 0) - (deltaArrivals[0] ?? 0),
  };
}

/** The median frame cost in the reply's first and last `WINDOW_CHARS` characters. */
function windowCosts(frames: readonly FrameSample[]): { first: number; last: number } {
  const finalLength = Math.max(0, ...frames.map((frame) => frame.replyLength));
  return {
    first: median(frames.filter((frame) => frame.replyLength <= WINDOW_CHARS).map((frame) => frame.costMs)),
    last: median(frames.filter((frame) => frame.replyLength > finalLength - WINDOW_CHARS).map((frame) => frame.costMs)),
  };
}

describe('streaming Markdown in the window', () => {
  it('costs the same per delta late in a long block as early, without long tasks or more than 60 deltas a second', async () => {
    const runs = new Map<LongKind, StreamMeasurement[]>(KINDS.map((kind) => [kind, []]));
    // Kinds take turns, so a slow spell on the machine spreads over all of them.
    for (let repetition = 0; repetition < REPETITIONS; repetition += 1) {
      for (const kind of KINDS) runs.get(kind)?.push(await streamReply(kind));
    }

    let longestTaskMs = 0;
    let deltaEvents = 0;
    let deltaSpanMs = 0;
    for (const kind of KINDS) {
      const measurements = runs.get(kind) ?? [];
      const costs = measurements.map((measurement) => windowCosts(measurement.frames));
      const first = median(costs.map((cost) => cost.first));
      const last = median(costs.map((cost) => cost.last));
      const name = kind === 'code' ? `streaming-markdown-delta-cost-code-${REPLY_BYTES / 1024}k-last-vs-first-2k` : `streaming-markdown-delta-cost-${kind}-last-vs-first-2k`;
      reportScenario({ name, value: last, baseline: first, unit: 'ms', target: '<= 1.5x', met: last <= 1.5 * first });
      for (const measurement of measurements) {
        longestTaskMs = Math.max(longestTaskMs, measurement.longestTaskMs);
        deltaEvents += measurement.deltaEvents;
        deltaSpanMs += measurement.deltaSpanMs;
      }
    }
    const perRun = (kind: LongKind) => (runs.get(kind) ?? []).map((measurement) => `${measurement.longestTaskMs.toFixed(1)} ms`).join(', ');
    console.log(`  longest renderer task per run: ${KINDS.map((kind) => `${kind} ${perRun(kind)}`).join('; ')}`);
    reportScenario({ name: 'streaming-markdown-longest-renderer-task', value: longestTaskMs, baseline: null, unit: 'ms', target: '<= 50 ms', met: longestTaskMs <= 50 });
    const eventsPerSecond = deltaSpanMs === 0 ? 0 : (deltaEvents * 1_000) / deltaSpanMs;
    reportScenario({ name: 'streaming-markdown-delta-events-per-second', value: eventsPerSecond, baseline: null, unit: '/s', target: '<= 60', met: eventsPerSecond <= 60 });
    expect(deltaEvents).toBeGreaterThan(0);
  }, 1_200_000);
});
