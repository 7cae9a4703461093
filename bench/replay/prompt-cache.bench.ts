/**
 * How much of each request a provider's prompt cache can serve. One conversation of 60 turns (16 in the smoke run)
 * rotates the seven brains, each answering two turns in a row, with tool rounds, reasoning and attached pictures and
 * PDFs, through the turn engine and the real adapters against the fake brains. For every request, the one before it to the same brain and model is
 * compared with it in the order the provider reads a request (tools, system prompt, history), and reported per wire:
 *
 * - consecutive: the brain sent the request right before (its own next turn, or its next tool round);
 * - after another brain: other brains answered in between;
 * - for Anthropic's wire, what is readable through the breakpoints: the longest common start that ends where the earlier
 *   request wrote a cache entry (one of its breakpoints) and within 20 blocks before one of this request's breakpoints,
 *   the documented lookback.
 *
 * The share is of the earlier request: how much of what was sent last time the next request starts with (targets:
 * 99 % consecutive, 95 % after another brain). Cache breakpoints are left out of the comparison: they say where to
 * cache, not what. This file reports; it asserts only that every turn completed and broke no wire rule.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeBrains } from '../../e2e/fake-brains/use-fake-brains';
import type { RecordedRequest } from '../../e2e/fake-brains/server';
import { BRAINS, WIRE_IDS, type BrainId, type WireId } from '../../src-shared/brains';
import { findModel } from '../../src-shared/models/catalogue';
import { engineOverFakeBrains } from '../../src-main/core/engine/testing';
import { writeAttachmentFile } from '../../src-main/core/attachments/attachment-files';
import { pdfFile, pngFile } from '../../src-main/core/attachments/test-files';
import { insertAttachment } from '../../src-main/core/store/attachments';
import { updateConversation } from '../../src-main/core/store/conversations';
import type { AppDatabase } from '../../src-main/core/store/open';
import { isSmokeRun } from '../support/scenario-line';

const TURNS = isSmokeRun() ? 16 : 60;
const ROTATION: readonly BrainId[] = ['claude', 'kimi', 'codex', 'gemini', 'glm', 'grok', 'ollama'];
/** Anthropic: a breakpoint finds an earlier cache entry at most this many blocks before it. */
const LOOKBACK_BLOCKS = 20;
const fake = useFakeBrains();

type Body = Record<string, unknown>;

function withoutBreakpoints(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (field, inner: unknown) => (field === 'cache_control' ? undefined : inner)));
}

/** A request as its provider's cache reads it: tools, then the system prompt, then the history. */
function readOrder(body: Body): string {
  const system = body.system ?? body.instructions ?? body.systemInstruction ?? null;
  const history = body.messages ?? body.input ?? body.contents;
  return JSON.stringify(withoutBreakpoints([body.tools ?? null, system, history]));
}

function commonStart(left: string, right: string): number {
  const limit = Math.min(left.length, right.length);
  let same = 0;
  while (same < limit && left.charCodeAt(same) === right.charCodeAt(same)) same += 1;
  return same;
}

type Block = Record<string, unknown>;

/** Anthropic's content blocks in order (system, then each message's), with where each request put breakpoints. */
function anthropicBlocks(body: Body): { readonly blocks: string[]; readonly marks: number[]; readonly prefixChars: number } {
  const system = (body.system as Block[] | undefined) ?? [];
  const messages = (body.messages as Array<{ role: string; content: Block[] }>) ?? [];
  const all = [...system.map((block) => ({ role: 'system', block })), ...messages.flatMap((message) => message.content.map((block) => ({ role: message.role, block })))];
  const marks = all.flatMap((entry, index) => (entry.block.cache_control ? [index] : []));
  return { blocks: all.map((entry) => JSON.stringify(withoutBreakpoints(entry))), marks, prefixChars: JSON.stringify(withoutBreakpoints(body.tools ?? null)).length };
}

/** The share of `earlier` a cache entry it wrote serves to `later`, by the 20-block lookback from `later`'s breakpoints. */
function readableThroughBreakpoints(earlier: Body, later: Body): number {
  const before = anthropicBlocks(earlier);
  const after = anthropicBlocks(later);
  let same = 0;
  while (same < before.blocks.length && same < after.blocks.length && before.blocks[same] === after.blocks[same]) same += 1;
  const hits = before.marks.filter((mark) => mark < same && after.marks.some((breakpoint) => breakpoint >= mark && breakpoint - mark <= LOOKBACK_BLOCKS));
  const total = before.prefixChars + before.blocks.reduce((sum, block) => sum + block.length, 0);
  if (hits.length === 0) return 0;
  const upTo = Math.max(...hits);
  return (before.prefixChars + before.blocks.slice(0, upTo + 1).reduce((sum, block) => sum + block.length, 0)) / total;
}

function message(turn: number): string {
  switch (turn % 3) {
    case 0:
      return `Turn ${turn}: the time in two cities? [think] [tool:current_time {"zone":"Asia/Seoul"}] [tool:current_time {"zone":"Europe/Paris"}]`;
    case 1:
      return `Turn ${turn}: and what follows from that? [think]`;
    default:
      return `Turn ${turn}: thanks, one more thought.`;
  }
}

/**
 * Every fifth turn attaches a picture, and every tenth a PDF too: each brain gets them in its own shape on the turn they
 * come with and on every later one, or a labelled stand-in where its model cannot take them.
 */
function attachmentsFor(db: AppDatabase, dataDir: string, turn: number, brain: BrainId): string[] {
  // A brain whose model takes no picture is sent none (the app refuses to send it one); it replays the others' stand-ins.
  const { inputs } = findModel(brain, BRAINS[brain].defaultModel).entry;
  if (turn % 5 !== 4 || !inputs.images) return [];
  const files: Array<{ name: string; kind: 'image' | 'pdf'; bytes: Buffer }> = [{ name: `chart-${turn}.png`, kind: 'image', bytes: pngFile(24 + turn, 16) }];
  if (turn % 10 === 9 && inputs.pdfs) files.push({ name: `notes-${turn}.pdf`, kind: 'pdf', bytes: pdfFile(`Turn ${turn}`) });
  return files.map((file) => {
    const id = `attachment-${turn}-${file.kind}`;
    insertAttachment(db, {
      id, messageId: null, name: file.name, kind: file.kind, sha256: writeAttachmentFile(dataDir, file.bytes), size: file.bytes.length,
      mediaType: file.kind === 'image' ? 'image/png' : 'application/pdf',
      width: file.kind === 'image' ? 24 + turn : null, height: file.kind === 'image' ? 16 : null, pages: file.kind === 'pdf' ? 1 : null,
      createdAt: '2026-12-01T00:00:00.000Z',
    });
    return id;
  });
}

interface Shares {
  consecutive: number[];
  afterAnother: number[];
  readableConsecutive: number[];
  readableAfterAnother: number[];
}

const mean = (values: readonly number[]): string => (values.length === 0 ? '—' : `${((values.reduce((sum, value) => sum + value, 0) / values.length) * 100).toFixed(1)} %`);

describe('prompt cache: the share of each request the next request to the same brain starts with', () => {
  it(`${TURNS} turns rotating the seven brains, two turns each, with tool rounds, reasoning and attachments`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-bench-cache-'));
    try {
      const { db, engine } = engineOverFakeBrains(fake, 'claude', { dataDir });
      updateConversation(db, 'c1', { reasoningLevel: 'high' });
      for (let turn = 0; turn < TURNS; turn += 1) {
        const brain = ROTATION[Math.floor(turn / 2) % ROTATION.length]!;
        updateConversation(db, 'c1', { brain, model: null });
        const reply = await engine.send('c1', message(turn), attachmentsFor(db, dataDir, turn, brain)).done;
        expect(reply.status).toBe('complete');
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(fake.violations()).toEqual([]);

    const requests: readonly RecordedRequest[] = fake.requests();
    const byWire = new Map<WireId, Shares>(WIRE_IDS.map((wire) => [wire, { consecutive: [], afterAnother: [], readableConsecutive: [], readableAfterAnother: [] }]));
    const lastTo = new Map<string, number>();
    requests.forEach((request, index) => {
      const body = request.body as Body;
      const key = `${request.brain}\n${String(body.model ?? request.path)}`;
      const earlierIndex = lastTo.get(key);
      lastTo.set(key, index);
      if (earlierIndex === undefined) return;
      const earlier = requests[earlierIndex]!.body as Body;
      const before = readOrder(earlier);
      const share = commonStart(before, readOrder(body)) / before.length;
      const shares = byWire.get(request.wire)!;
      const consecutive = earlierIndex === index - 1;
      (consecutive ? shares.consecutive : shares.afterAnother).push(share);
      if (request.wire === 'anthropic-messages') {
        (consecutive ? shares.readableConsecutive : shares.readableAfterAnother).push(readableThroughBreakpoints(earlier, body));
      }
    });

    console.log(`\nprompt cache over ${TURNS} turns, ${requests.length} requests (share of the earlier request the next one to the same brain starts with)`);
    for (const [wire, shares] of byWire) {
      const brains = ROTATION.filter((brain) => BRAINS[brain].wire === wire).join(', ');
      const readable = wire === 'anthropic-messages'
        ? ` · readable through breakpoints: consecutive ${mean(shares.readableConsecutive)}, after another brain ${mean(shares.readableAfterAnother)}`
        : '';
      console.log(`  ${wire} (${brains}): consecutive ${mean(shares.consecutive)} (${shares.consecutive.length}) · after another brain ${mean(shares.afterAnother)} (${shares.afterAnother.length})${readable}`);
    }
  });
});
