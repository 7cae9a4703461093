/**
 * What every file of commands shares: the dependencies a handler may be given, and the join that turns the areas'
 * handlers into the one table `dispatch` runs.
 */
import type { LeftoverSweep } from '../attachments/sweep';
import type { ApiEvent, CommandHandlers } from '../../../src-shared/api';
import type { KeyStore } from '../core-types';
import type { TurnEngine } from '../engine/turn-engine';
import type { McpServerStore } from '../mcp-server-store';
import type { NotAnswering } from '../outside/not-answering';
import type { ModelReports } from '../model-reports';
import type { AppDatabase } from '../store/open';
import type { AppToolbox } from '../toolbox';
import type { ExportJobs } from '../transcripts/export-jobs';

export interface CommandDependencies {
  readonly db: AppDatabase;
  readonly dataDir: string;
  readonly emit: (event: ApiEvent) => void;
  readonly engine: TurnEngine;
  readonly toolbox: AppToolbox;
  readonly mcpServers: McpServerStore;
  /** Exports of all conversations: run on a worker, held until read. */
  readonly exports: ExportJobs;
  /** Settles once the MCP servers stored at start-up were handed to the toolbox. */
  readonly mcpReady: Promise<void>;
  /** Environment for base URL and key variables. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly keyStore: KeyStore | undefined;
  /** Replies found still streaming when this process opened the data folder, now marked interrupted. */
  readonly recoveredInterrupted: number;
  /** What the start-up sweep found of files a killed import or attach left behind. */
  readonly leftovers: LeftoverSweep;
  /** What outside Anybrain is not answering right now. */
  readonly notAnswering: NotAnswering;
  /** Each brain's own model list, asked for and kept. */
  readonly modelReports: ModelReports;
}

/** Some of the Api's commands, each handled with the input its schema parsed. */
export type HandlerGroup = Partial<CommandHandlers>;

type NamesOf<Groups extends readonly HandlerGroup[]> = Groups extends readonly [infer First, ...infer Rest extends readonly HandlerGroup[]]
  ? keyof First | NamesOf<Rest>
  : never;

/** The command names two groups both handle; never when each command has one handler. */
type HandledTwice<Groups extends readonly HandlerGroup[]> = Groups extends readonly [infer First, ...infer Rest extends readonly HandlerGroup[]]
  ? (keyof First & NamesOf<Rest>) | HandledTwice<Rest>
  : never;

type UnionToIntersection<Union> = (Union extends unknown ? (value: Union) => void : never) extends (value: infer Intersection) => void
  ? Intersection
  : never;

/**
 * Joins the areas' handlers. Assigning the result to `CommandHandlers` compiles only when every command is handled
 * exactly once: a command no group handles is missing from it, and one two groups handle turns it into an object that
 * names that command under `handledTwice`.
 */
export function joinHandlers<const Groups extends readonly HandlerGroup[]>(
  ...groups: Groups
): [HandledTwice<Groups>] extends [never] ? UnionToIntersection<Groups[number]> : { readonly handledTwice: HandledTwice<Groups> } {
  return Object.assign({}, ...groups) as never;
}
