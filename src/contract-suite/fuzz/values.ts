import fc from "fast-check";
import type { TSchema } from "@sinclair/typebox";

// Values for one field, from its schema: valid ones, the boundaries, and what a careless or
// hostile client sends instead (wrong types, other notations, odd text). Text parts (path and
// query) get strings; a JSON body gets JSON values.

/** What the fuzzer knows of the target, so schema-drawn values are often real ones (an existing collection). */
export interface KnownValues {
  addresses: string[];
  tokenIds: number[];
  chainIds: number[];
}

const ODD_TEXT = [
  "",
  " ",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-0",
  "１２",
  "\u0000",
  "%00",
  "../..",
  "a".repeat(3000),
  "😀",
  "<script>",
  "' OR 1=1 --",
  "__proto__",
];

function branches(schema: TSchema): TSchema[] {
  return (schema.anyOf as TSchema[] | undefined) ?? [schema];
}

/** Numbers in the schema's range (and the real ones known), and the ones just outside it or of the wrong kind. */
function numberValues(
  schema: TSchema,
  known: number[],
): { valid: fc.Arbitrary<number>; invalid: fc.Arbitrary<number> } {
  const min = typeof schema.minimum === "number" ? schema.minimum : 0;
  const max = typeof schema.maximum === "number" ? Math.min(schema.maximum, Number.MAX_SAFE_INTEGER) : 1_000_000;
  const integer = schema.type === "integer";
  const inRange = integer
    ? fc.integer({ min, max: Math.min(max, min + 1_000) })
    : fc.double({ min, max: Math.min(max, 1e9), noNaN: true });
  const valid = fc.oneof(inRange, fc.constantFrom(min, max), ...(known.length ? [fc.constantFrom(...known)] : []));
  const outside = fc.constantFrom(min - 1, max + 1, -1, 2 ** 53, 2 ** 64);
  return { valid, invalid: integer ? fc.oneof(outside, fc.double({ noNaN: true, noDefaultInfinity: true })) : outside };
}

/** A field's value as text, for the path or the query: mostly valid, sometimes another notation or odd text. */
export function textValue(schema: TSchema, known: KnownValues, name: string): fc.Arbitrary<string> {
  const valid: fc.Arbitrary<string>[] = [];
  const invalid: fc.Arbitrary<string>[] = [fc.constantFrom(...ODD_TEXT), fc.string({ maxLength: 40 })];
  for (const branch of branches(schema)) {
    if (branch.type === "integer" || branch.type === "number") {
      const knownNumbers = name === "tokenId" ? known.tokenIds : name === "chainId" ? known.chainIds : [];
      const numbers = numberValues(branch, knownNumbers);
      valid.push(numbers.valid.map(String));
      invalid.push(numbers.invalid.map(String), numbers.valid.map(otherNotation));
    } else if (branch.type === "boolean") {
      valid.push(fc.constantFrom("true", "false"));
      invalid.push(fc.constantFrom("1", "0", "yes", "TRUE"));
    } else if (Array.isArray(branch.enum)) {
      valid.push(fc.constantFrom(...(branch.enum as string[])));
      invalid.push(fc.constantFrom(...(branch.enum as string[])).map((value) => value.toUpperCase()));
    } else if (typeof branch.pattern === "string" && branch.pattern.includes("40")) {
      valid.push(addresses(known));
    } else if (branch.type === "string") {
      valid.push(fc.string({ minLength: 1, maxLength: 30 }));
    }
  }
  return fc.oneof(
    { weight: 5, arbitrary: fc.oneof(...(valid.length ? valid : invalid)) },
    { weight: 1, arbitrary: fc.oneof(...invalid) },
  );
}

/**
 * The same number written another way (the `form`th of: hexadecimal, an exponent, padded, signed, a fraction, a leading
 * zero).
 */
export function otherNotation(value: number, form = Math.abs(Math.trunc(value))): string {
  const forms = [
    `0x${Math.trunc(Math.abs(value)).toString(16)}`,
    `${value}e0`,
    ` ${value}`,
    `+${value}`,
    `${value}.0`,
    `0${value}`,
  ];
  return forms[form % forms.length]!;
}

function addresses(known: KnownValues): fc.Arbitrary<string> {
  const hex40 = fc.stringMatching(/^[0-9a-f]{40}$/).map((hex) => `0x${hex}`);
  const knownOr = (form: (address: string) => string) =>
    known.addresses.length ? fc.constantFrom(...known.addresses).map(form) : hex40;
  return fc.oneof(
    { weight: 6, arbitrary: knownOr((address) => address) },
    { weight: 1, arbitrary: knownOr((address) => address.toUpperCase().replace("0X", "0x")) },
    { weight: 1, arbitrary: hex40 },
    {
      weight: 1,
      arbitrary: fc.constantFrom("0x123", `0x${"g".repeat(40)}`, `0x${"a".repeat(41)}`, "0x", `${"a".repeat(40)}`),
    },
  );
}

/** A field's value in a JSON body: valid ones, boundaries, and wrong types. */
export function jsonValue(schema: TSchema, known: KnownValues, name: string, depth = 0): fc.Arbitrary<unknown> {
  const wrong = fc.constantFrom<unknown>(null, true, "text", 12, -1, [], {}, 1.5, "", "0x10", 1e308, ...ODD_TEXT);
  const options: fc.Arbitrary<unknown>[] = [];
  for (const branch of branches(schema)) {
    if (branch.type === "object" && depth < 2) options.push(jsonObject(branch, known, depth + 1));
    else if (branch.type === "array" && branch.items)
      options.push(fc.array(jsonValue(branch.items as TSchema, known, name, depth + 1), { maxLength: 4 }));
    else if (branch.type === "integer" || branch.type === "number") {
      const numbers = numberValues(branch, name === "chainId" ? known.chainIds : []);
      options.push(fc.oneof({ weight: 6, arbitrary: numbers.valid }, { weight: 1, arbitrary: numbers.invalid }));
    } else if (branch.type === "boolean") options.push(fc.boolean());
    else if (Array.isArray(branch.enum)) options.push(fc.constantFrom(...(branch.enum as unknown[])));
    else if (typeof branch.pattern === "string" && branch.pattern.includes("40")) options.push(addresses(known));
    else if (branch.type === "string") options.push(fc.string({ minLength: 1, maxLength: 30 }));
  }
  return options.length
    ? fc.oneof({ weight: 8, arbitrary: fc.oneof(...options) }, { weight: 1, arbitrary: wrong })
    : wrong;
}

/** An object for a schema: each required field mostly present, optional ones sometimes, now and then an unknown one. */
export function jsonObject(schema: TSchema, known: KnownValues, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const fields = Object.entries(properties).map(([name, field]) =>
    fc
      .tuple(fc.constant(name), jsonValue(field, known, name, depth), fc.integer({ min: 0, max: 9 }))
      .map(([key, value, roll]) => {
        const present = required.has(key) ? roll > 0 : roll > 5;
        return present ? [[key, value] as const] : [];
      }),
  );
  const extraField = fc.oneof(
    { weight: 8, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom("extra", "__proto__", "constructor", "apiKey"), fc.jsonValue()) },
  );
  return fc.tuple(fc.tuple(...fields), extraField).map(([entries, extra]) => {
    const object: Record<string, unknown> = Object.fromEntries(entries.flat());
    if (extra)
      Object.defineProperty(object, extra[0], {
        value: extra[1],
        enumerable: true,
        configurable: true,
        writable: true,
      });
    return object;
  });
}
