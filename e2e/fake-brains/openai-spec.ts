/**
 * Whole-body validation of OpenAI wire requests against OpenAI's published OpenAPI document
 * (`reference/specs/openai/openapi.yaml`, OpenAPI 3.1, whose schemas are JSON Schema 2020-12 with a few OpenAPI 3.0
 * leftovers). The document is parsed and each schema compiled once per process, on first use; a failing body is
 * described the way OpenAI's 400s describe it: one parameter path, one sentence.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import type { AnyValidateFunction } from 'ajv/dist/core.js';
import type { ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { isRecord } from './fake-wire';

/** The request schemas the fake checks: `POST /responses` and `POST /chat/completions`. */
export type OpenAiRequestSchema = 'CreateResponse' | 'CreateChatCompletionRequest';

export interface SpecViolation {
  readonly message: string;
  /** The failing parameter in OpenAI's notation: `input[1].call_id`. */
  readonly param: string;
  readonly code: string;
}

export interface OpenAiSpecValidator {
  check(schema: OpenAiRequestSchema, body: unknown): SpecViolation | null;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** OpenAI's own OpenAPI document, kept in the repository (see e2e/fixtures/reference/specs/SOURCES.md). */
export const DEFAULT_OPENAI_SPEC_PATH = path.resolve(here, '../fixtures/reference/specs/openai/openapi.yaml');

const DOCUMENT_ID = 'openai-openapi.yaml';
/** Branch keywords report that a branch failed; the branch's own error says why. */
const BRANCH_KEYWORDS = new Set(['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else']);
/** Properties that tell the branches of OpenAI's unions apart (`discriminator.propertyName` in the document). */
const DISCRIMINATORS = ['type', 'role'];

const validators = new Map<string, OpenAiSpecValidator>();

/** One validator per spec file and process: parsing the 3 MB document takes seconds, validating a body well under one. */
export function openAiSpecValidator(specPath: string = DEFAULT_OPENAI_SPEC_PATH): OpenAiSpecValidator {
  const known = validators.get(specPath);
  if (known !== undefined) return known;
  let loaded: LoadedDocument | null = null;
  const compiled = new Map<OpenAiRequestSchema, AnyValidateFunction>();
  const validator: OpenAiSpecValidator = {
    check(schema, body) {
      loaded ??= loadDocument(specPath);
      let validate = compiled.get(schema);
      if (validate === undefined) {
        validate = loaded.ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${schema}`);
        if (validate === undefined) throw new Error(`${specPath} has no schema ${schema}.`);
        compiled.set(schema, validate);
      }
      if (validate(body)) return null;
      return describeFailure(validate.errors ?? [], loaded.discriminatorValues);
    },
  };
  validators.set(specPath, validator);
  return validator;
}

interface LoadedDocument {
  readonly ajv: Ajv2020;
  /** Every value a `type` or `role` property of some schema accepts: the kinds of items the unions know. */
  readonly discriminatorValues: ReadonlySet<unknown>;
}

function loadDocument(specPath: string): LoadedDocument {
  if (!existsSync(specPath)) {
    throw new Error(`OpenAI's OpenAPI document is not at ${specPath}: pass \`openAiSpecPath\` to startFakeBrains (null turns spec validation off).`);
  }
  const document: unknown = parse(readFileSync(specPath, 'utf8'));
  if (!isRecord(document) || !isRecord(document.components)) throw new Error(`${specPath} is not an OpenAPI document with components.`);
  // `verbose` keeps each error's data and schema: choosing the branch that applies needs both.
  const ajv = new Ajv2020({ strict: false, allErrors: false, verbose: true, logger: false });
  addFormats(ajv);
  // `discriminator` only names the property the union branches differ in; the branches themselves decide.
  ajv.addKeyword('discriminator');
  // Only `#/components/...` is ever referenced; the paths and webhooks would just slow registration down.
  const components = lenientSchema(document.components);
  ajv.addSchema({ $id: DOCUMENT_ID, components });
  return { ajv, discriminatorValues: collectDiscriminatorValues(components) };
}

function collectDiscriminatorValues(node: unknown, values = new Set<unknown>()): Set<unknown> {
  if (Array.isArray(node)) {
    for (const item of node) collectDiscriminatorValues(item, values);
  } else if (isRecord(node)) {
    const properties = node.properties;
    if (isRecord(properties)) {
      for (const name of DISCRIMINATORS) for (const value of allowedValuesOf(properties[name]) ?? []) values.add(value);
    }
    for (const value of Object.values(node)) collectDiscriminatorValues(value, values);
  }
  return values;
}

/** The values a schema admits when it lists them (`enum`, `const`, unions of those); null when it admits any. */
function allowedValuesOf(schema: unknown): unknown[] | null {
  if (!isRecord(schema)) return null;
  if (Array.isArray(schema.enum)) return schema.enum;
  if ('const' in schema) return [schema.const];
  if (schema.type === 'null') return [null];
  const members = Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (members === null) return null;
  const values: unknown[] = [];
  for (const member of members) {
    const memberValues = allowedValuesOf(member);
    if (memberValues === null) return null;
    values.push(...memberValues);
  }
  return values;
}

/**
 * Reads the document the way OpenAI's servers evidently do:
 * - `oneOf` as `anyOf`: the unions pick a branch by `discriminator`, and their branches overlap (a plain input
 *   message is both an `EasyInputMessage` and an `InputMessage`), so "exactly one" would refuse valid bodies;
 * - OpenAPI 3.0's `nullable: true`, which survives in parts of the 3.1 document, as a type that admits null (JSON
 *   Schema has no such keyword, and Ajv refuses it without a sibling `type`).
 */
export function lenientSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(lenientSchema);
  if (!isRecord(node)) return node;
  const rewritten: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable' && typeof value === 'boolean') continue;
    rewritten[key === 'oneOf' && Array.isArray(value) ? 'anyOf' : key] = lenientSchema(value);
  }
  if (node.nullable !== true) return rewritten;
  if (Array.isArray(rewritten.enum) && !rewritten.enum.includes(null)) rewritten.enum = [...rewritten.enum, null];
  if (typeof rewritten.type === 'string') return { ...rewritten, type: [rewritten.type, 'null'] };
  if (Array.isArray(rewritten.type)) return { ...rewritten, type: [...rewritten.type, 'null'] };
  return { anyOf: [rewritten, { type: 'null' }] };
}

/** Picks the error a person would fix first and words it as OpenAI does. */
export function describeFailure(errors: readonly ErrorObject[], discriminatorValues: ReadonlySet<unknown>): SpecViolation {
  const chosen = mostSpecificError(errors, discriminatorValues);
  if (chosen === undefined) return { message: 'Invalid request body.', param: '', code: 'invalid_value' };
  return describeError(chosen, errors);
}

function mostSpecificError(errors: readonly ErrorObject[], discriminatorValues: ReadonlySet<unknown>): ErrorObject | undefined {
  const leaves = errors.filter((error) => !BRANCH_KEYWORDS.has(error.keyword));
  const candidates = leaves.length > 0 ? leaves : errors;
  let best: ErrorObject | undefined;
  let bestRank: readonly number[] = [];
  for (const error of candidates) {
    const rank = [isForOtherBranch(error, discriminatorValues) ? 0 : 1, depthOf(error), error.keyword === 'required' ? 0 : 1];
    if (best === undefined || compareRanks(rank, bestRank) > 0) {
      best = error;
      bestRank = rank;
    }
  }
  return best;
}

function compareRanks(left: readonly number[], right: readonly number[]): number {
  for (const [index, value] of left.entries()) {
    const difference = value - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** How deep the failing value sits; a missing or unknown property counts as one level below its object. */
function depthOf(error: ErrorObject): number {
  const segments = error.instancePath === '' ? 0 : error.instancePath.split('/').length - 1;
  return segments + (error.keyword === 'required' || error.keyword === 'additionalProperties' ? 1 : 0);
}

/**
 * An error from a union branch meant for another kind of item: the branch wants another `type` (or `role`) than the
 * value's, and the value's is one some other branch takes. An unknown kind is the error itself.
 */
function isForOtherBranch(error: ErrorObject, discriminatorValues: ReadonlySet<unknown>): boolean {
  if ((error.keyword === 'enum' || error.keyword === 'const') && DISCRIMINATORS.some((name) => error.instancePath.endsWith(`/${name}`))) {
    return discriminatorValues.has(error.data);
  }
  const schema: unknown = error.parentSchema;
  if (!isRecord(error.data) || !isRecord(schema) || !isRecord(schema.properties)) return false;
  const properties = schema.properties;
  const data = error.data;
  return DISCRIMINATORS.some((name) => {
    const allowed = allowedValuesOf(properties[name]);
    return data[name] !== undefined && allowed !== null && !allowed.includes(data[name]);
  });
}

/** Words one error; `errors` (all of them) supply what sibling branches said about the same value. */
function describeError(error: ErrorObject, errors: readonly ErrorObject[]): SpecViolation {
  const param = paramOf(error.instancePath);
  const siblings = errors.filter((other) => other.instancePath === error.instancePath && other.keyword === error.keyword);
  const params: Record<string, unknown> = error.params;
  const value: unknown = error.data;
  switch (error.keyword) {
    case 'required': {
      const missing = joinParam(param, String(params.missingProperty));
      return { message: `Missing required parameter: '${missing}'.`, param: missing, code: 'missing_required_parameter' };
    }
    case 'additionalProperties': {
      const unknown = joinParam(param, String(params.additionalProperty));
      return { message: `Unknown parameter: '${unknown}'.`, param: unknown, code: 'unknown_parameter' };
    }
    case 'type': {
      const types = [...new Set(siblings.flatMap((sibling) => String(sibling.params.type).split(',')))];
      const wanted = types.length > 1 ? types.filter((type) => type !== 'null') : types;
      const expected = wanted.length === 1 ? withArticle(wanted[0] ?? '') : `one of ${wanted.map(withArticle).join(' or ')}`;
      return { message: `Invalid type for '${param}': expected ${expected}, but got ${describeValue(value)} instead.`, param, code: 'invalid_type' };
    }
    case 'enum':
    case 'const': {
      const allowed = [...new Set([...siblings.flatMap(valuesAllowedBy), ...discriminatorValuesOfOwner(error, errors)])];
      return { message: `Invalid value: '${String(value)}'. Supported values are: ${listValues(allowed)}.`, param, code: 'invalid_value' };
    }
    case 'maxLength':
      return {
        message: `Invalid '${param}': string too long. Expected a string with maximum length ${String(params.limit)}, but got a string with length ${String(value).length} instead.`,
        param,
        code: 'string_above_max_length',
      };
    case 'minLength':
      return String(value) === ''
        ? { message: `Invalid '${param}': empty string. Expected a string with minimum length ${String(params.limit)}, but got an empty string instead.`, param, code: 'empty_string' }
        : {
            message: `Invalid '${param}': string too short. Expected a string with minimum length ${String(params.limit)}, but got a string with length ${String(value).length} instead.`,
            param,
            code: 'string_below_min_length',
          };
    case 'minItems': {
      const length = Array.isArray(value) ? value.length : 0;
      return length === 0
        ? { message: `Invalid '${param}': empty array. Expected an array with minimum length ${String(params.limit)}, but got an empty array instead.`, param, code: 'empty_array' }
        : {
            message: `Invalid '${param}': array too short. Expected an array with minimum length ${String(params.limit)}, but got an array with length ${length} instead.`,
            param,
            code: 'array_below_min_length',
          };
    }
    case 'maxItems':
      return {
        message: `Invalid '${param}': array too long. Expected an array with maximum length ${String(params.limit)}, but got an array with length ${Array.isArray(value) ? value.length : 0} instead.`,
        param,
        code: 'array_above_max_length',
      };
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum': {
      const schema: unknown = error.parentSchema;
      const declaredType = isRecord(schema) ? schema.type : undefined;
      const numberKind = declaredType === 'integer' || (Array.isArray(declaredType) && declaredType.includes('integer')) ? 'integer' : 'decimal';
      const below = error.keyword === 'minimum' || error.keyword === 'exclusiveMinimum';
      return {
        message: `Invalid '${param}': ${numberKind} ${below ? 'below minimum' : 'above maximum'} value. Expected a value ${String(params.comparison)} ${String(params.limit)}, but got ${String(value)} instead.`,
        param,
        code: `${numberKind}_${below ? 'below_min' : 'above_max'}_value`,
      };
    }
    default:
      return { message: `Invalid '${param}': ${error.message ?? 'invalid value'}.`, param, code: 'invalid_value' };
  }
}

function valuesAllowedBy(error: ErrorObject): unknown[] {
  const params: Record<string, unknown> = error.params;
  if (error.keyword === 'const') return [params.allowedValue];
  return Array.isArray(params.allowedValues) ? params.allowedValues : [];
}

/**
 * For a bad `type`/`role`, the kinds the other branches of the same union take: those branches may have failed on a
 * missing property before they reached the value, so their own enum errors are not in the list.
 */
function discriminatorValuesOfOwner(error: ErrorObject, errors: readonly ErrorObject[]): unknown[] {
  const name = DISCRIMINATORS.find((candidate) => error.instancePath.endsWith(`/${candidate}`));
  if (name === undefined) return [];
  const ownerPath = error.instancePath.slice(0, -(name.length + 1));
  return errors.flatMap((other) => {
    const schema: unknown = other.parentSchema;
    if (other.instancePath !== ownerPath || !isRecord(schema) || !isRecord(schema.properties)) return [];
    return (allowedValuesOf(schema.properties[name]) ?? []).filter((value) => value !== null);
  });
}

/** `/input/1/call_id` → `input[1].call_id`. */
export function paramOf(instancePath: string): string {
  let param = '';
  for (const rawSegment of instancePath.split('/').slice(1)) {
    const segment = rawSegment.replace(/~1/g, '/').replace(/~0/g, '~');
    param = /^\d+$/.test(segment) ? `${param}[${segment}]` : joinParam(param, segment);
  }
  return param;
}

function joinParam(param: string, property: string): string {
  return param === '' ? property : `${param}.${property}`;
}

function withArticle(type: string): string {
  switch (type) {
    case 'integer':
    case 'object':
    case 'array':
      return `an ${type}`;
    case 'number':
      return 'a decimal';
    case 'null':
      return 'null';
    default:
      return `a ${type}`;
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a decimal';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

/** `'a'`, `'a' and 'b'`, `'a', 'b', and 'c'`: OpenAI's list of supported values. */
function listValues(values: readonly unknown[]): string {
  const quoted = values.map((value) => `'${String(value)}'`);
  if (quoted.length <= 2) return quoted.join(' and ');
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1) ?? ''}`;
}
