import { describe, expect, it } from 'vitest';
import { MAX_PATH_STEPS, StreamedArguments, formatJsonPath, parseJsonPath } from './gemini-partial-args';

/** Applies the PartialArgs in order and returns the arguments, or the first problem. */
function assemble(...partialArgs: unknown[]): { readonly args: Record<string, unknown> } | { readonly problem: string } {
  const assembly = new StreamedArguments();
  for (const partialArg of partialArgs) {
    const problem = assembly.add(partialArg);
    if (problem !== null) return { problem };
  }
  const problem = assembly.unfinished();
  return problem === null ? { args: assembly.value } : { problem };
}

describe('parseJsonPath', () => {
  it('reads RFC 9535 paths to one place: dot names, quoted names, indexes', () => {
    expect(parseJsonPath('$.recipe.ingredients[0].name')).toEqual(['recipe', 'ingredients', 0, 'name']);
    expect(parseJsonPath('$.foo.bar[0].data')).toEqual(['foo', 'bar', 0, 'data']);
    expect(parseJsonPath("$['first name'][12][\"it's\"]")).toEqual(['first name', 12, "it's"]);
    expect(parseJsonPath("$['a\\'b\\\\c\\n\\u00e9\\uD83D\\uDE00\\/']")).toEqual(["a'b\\c\né😀/"]);
    expect(parseJsonPath('$["say \\"hi\\""]')).toEqual(['say "hi"']);
    expect(parseJsonPath('$.ключ.名前._x9')).toEqual(['ключ', '名前', '_x9']);
    expect(parseJsonPath('$ .a [ 0 ] [ \'b\' ]')).toEqual(['a', 0, 'b']);
    expect(parseJsonPath('$')).toEqual([]);
  });

  it('refuses what names no single place or is no path at all', () => {
    for (const path of [
      '',
      'a.b',
      '.a',
      '$.',
      '$..a',
      '$.*',
      '$[*]',
      '$[0:2]',
      '$[-1]',
      '$[01]',
      '$[0,1]',
      "$['a','b']",
      '$[?@.a]',
      '$.9lives',
      '$.a-b',
      '$[a]',
      "$['unterminated",
      "$['a'",
      '$["a\\q"]',
      '$["\\uD83D"]',
      '$["\\uDE00"]',
      '$["tab\there"]',
      '$[9007199254740993]',
      '$.a b',
    ]) {
      expect(parseJsonPath(path), path).toBeNull();
    }
  });

  it('writes a path back with dot names where they are allowed, so one place has one spelling', () => {
    expect(formatJsonPath(['recipe', 'ingredients', 0, 'name'])).toBe('$.recipe.ingredients[0].name');
    expect(formatJsonPath(['first name', 'a"b', 'ключ'])).toBe('$["first name"]["a\\"b"].ключ');
    expect(parseJsonPath("$['recipe']")).toEqual(parseJsonPath('$.recipe'));
  });
});

describe('StreamedArguments', () => {
  it('builds nested objects and arrays of objects from their leaves, every JSON type', () => {
    expect(
      assemble(
        { jsonPath: '$.recipe.name', stringValue: 'Lasagna' },
        { jsonPath: '$.recipe.ingredients[0].name', stringValue: 'Noodles' },
        { jsonPath: '$.recipe.ingredients[0].grams', numberValue: 250 },
        { jsonPath: '$.recipe.ingredients[1].name', stringValue: 'Ricotta' },
        { jsonPath: '$.recipe.ingredients[1].optional', boolValue: false },
        { jsonPath: '$.recipe.ingredients[1].brand', nullValue: 'NULL_VALUE' },
        { jsonPath: '$.recipe.steps[0]', stringValue: 'Boil.' },
        { jsonPath: '$.recipe.steps[1]', stringValue: 'Layer.' },
        { jsonPath: '$.grid[0][0]', numberValue: 1 },
        { jsonPath: '$.grid[0][1]', numberValue: 0 },
        { jsonPath: '$.grid[1][0]', boolValue: true },
        { jsonPath: '$.note', nullValue: null },
      ),
    ).toEqual({
      args: {
        recipe: {
          name: 'Lasagna',
          ingredients: [
            { name: 'Noodles', grams: 250 },
            { name: 'Ricotta', optional: false, brand: null },
          ],
          steps: ['Boil.', 'Layer.'],
        },
        grid: [[1, 0], [true]],
        note: null,
      },
    });
  });

  it('joins a string sent in pieces while each piece says willContinue, and no longer', () => {
    expect(
      assemble(
        { jsonPath: '$.steps[0]', stringValue: 'Boil.' },
        { jsonPath: '$.steps[1]', stringValue: 'In a 9x13 baking dish, spread a', willContinue: true },
        { jsonPath: '$.steps[1]', stringValue: ' thin layer of meat sauce.', willContinue: true },
        { jsonPath: '$.steps[1]', stringValue: '' },
      ),
    ).toEqual({ args: { steps: ['Boil.', 'In a 9x13 baking dish, spread a thin layer of meat sauce.'] } });
    expect(
      assemble(
        { jsonPath: '$.location', stringValue: 'Boston', willContinue: true },
        { jsonPath: '$.unit', stringValue: 'celsius' },
        { jsonPath: '$.location', stringValue: ', MA', willContinue: true },
        { jsonPath: "$['location']", stringValue: '' },
      ),
    ).toEqual({ args: { location: 'Boston, MA', unit: 'celsius' } });
    expect(assemble({ jsonPath: '$.location', stringValue: 'Boston', willContinue: true }, { jsonPath: '$.location', stringValue: ', MA' })).toEqual({
      args: { location: 'Boston, MA' },
    });
    expect(assemble({ jsonPath: '$.location', stringValue: 'Boston' }, { jsonPath: '$.location', stringValue: ', MA' })).toEqual({
      problem: '$.location gets a second value',
    });
  });

  it('keeps reserved and inherited names as plain own keys, and refuses the ones that reach prototypes', () => {
    const built = assemble({ jsonPath: '$.toString', stringValue: 'a' }, { jsonPath: '$.hasOwnProperty.valueOf', numberValue: 1 });
    expect(built).toEqual({ args: { toString: 'a', hasOwnProperty: { valueOf: 1 } } });
    for (const [path, name] of [
      ['$.__proto__.polluted', '__proto__'],
      ["$['__proto__']", '__proto__'],
      ['$.constructor.prototype.polluted', 'constructor'],
      ['$.a.prototype', 'prototype'],
    ] as const) {
      expect(assemble({ jsonPath: path, stringValue: 'yes' })).toEqual({ problem: `the jsonPath ${JSON.stringify(path)} uses the reserved name "${name}"` });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('says what is wrong with a part it cannot place', () => {
    const cases: readonly (readonly [readonly unknown[], string])[] = [
      [['not an object'], 'a partialArgs entry is not an object'],
      [[{ stringValue: 'x' }], 'the jsonPath "" is not an RFC 9535 path to one place'],
      [[{ jsonPath: '$.items[*]', stringValue: 'x' }], 'the jsonPath "$.items[*]" is not an RFC 9535 path to one place'],
      [[{ jsonPath: '$', stringValue: 'x' }], 'a partialArgs entry sets the whole arguments ("$"), not one of them'],
      [[{ jsonPath: '$[0]', stringValue: 'x' }], '$[0] treats the arguments as an array, but they are an object'],
      [[{ jsonPath: '$.a' }], 'the part for $.a carries no value'],
      [[{ jsonPath: '$.a', stringValue: 'x', numberValue: 1 }], 'the part for $.a carries more than one value or an unreadable one'],
      [[{ jsonPath: '$.a', numberValue: 'NaN' }], 'the part for $.a carries more than one value or an unreadable one'],
      [[{ jsonPath: '$.a', nullValue: 'zero' }], 'the part for $.a carries more than one value or an unreadable one'],
      [[{ jsonPath: '$.a', numberValue: 1, willContinue: true }], 'the part for $.a says a number continues; only a string arrives in pieces'],
      [[{ jsonPath: '$.a', stringValue: 'x' }, { jsonPath: '$.a.b', stringValue: 'y' }], '$.a.b goes inside $.a, which an earlier part set to a string'],
      [[{ jsonPath: '$.a[0]', stringValue: 'x' }, { jsonPath: '$.a.b', stringValue: 'y' }], '$.a.b treats $.a as an object, but it is an array'],
      [[{ jsonPath: '$.a.b', stringValue: 'x' }, { jsonPath: '$.a[0]', stringValue: 'y' }], '$.a[0] treats $.a as an array, but it is an object'],
      [[{ jsonPath: '$.a.b', stringValue: 'x' }, { jsonPath: '$.a', numberValue: 1 }], '$.a gets a number, but earlier parts made it an object'],
      [[{ jsonPath: '$.a[0]', boolValue: true }, { jsonPath: '$.a[2]', boolValue: false }], '$.a[2] leaves a gap: the array holds 1 item so far'],
      [[{ jsonPath: '$.a[1].b', boolValue: true }], '$.a[1] leaves a gap: the array holds 0 items so far'],
      [[{ jsonPath: '$.a', stringValue: 'x', willContinue: true }, { jsonPath: '$.a', numberValue: 2 }], '$.a continues a string with a number'],
      [[{ jsonPath: '$.a', stringValue: 'Bos', willContinue: true }], 'the call ended while the string at $.a was still coming'],
      [[{ jsonPath: `$${'[0]'.repeat(MAX_PATH_STEPS + 1)}`, numberValue: 1 }], `the jsonPath ${JSON.stringify(`$${'[0]'.repeat(39)}[0…`)} nests deeper than ${MAX_PATH_STEPS} levels`],
    ];
    for (const [partialArgs, problem] of cases) {
      expect(assemble(...partialArgs), JSON.stringify(partialArgs)).toEqual({ problem });
    }
  });

  it('cuts a long path in its messages', () => {
    const path = `$.${'x'.repeat(300)}`;
    const result = assemble({ jsonPath: path });
    expect(result).toEqual({ problem: `the part for $.${'x'.repeat(118)}… carries no value` });
  });

  it('takes whole args beside streamed ones, and refuses a second value for one of their keys', () => {
    const assembly = new StreamedArguments();
    expect(assembly.addWhole({ city: 'Paris', days: [1, 2] })).toBeNull();
    expect(assembly.add({ jsonPath: '$.days[2]', numberValue: 3 })).toBeNull();
    expect(assembly.value).toEqual({ city: 'Paris', days: [1, 2, 3] });
    expect(assembly.addWhole({ city: 'Lyon' })).toBe('args gives $.city a second value');
  });
});
