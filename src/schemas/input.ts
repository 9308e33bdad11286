import { Type, type TOptional, type TProperties, type TSchema } from "@sinclair/typebox";

/**
 * The properties `keys` names made optional: fields a caller may leave out, which their defaults fill in. The
 * schema checked is the same either way (ajv fills the defaults before it looks at `required`); the static type
 * says what a caller may write.
 */
export function optional<P extends TProperties, const K extends keyof P & string>(
  properties: P,
  keys: readonly K[],
): Omit<P, K> & { [Key in K]: TOptional<P[Key]> } {
  const made: Record<string, TSchema> = { ...properties };
  for (const key of keys) made[key] = Type.Optional(properties[key]!);
  return made as Omit<P, K> & { [Key in K]: TOptional<P[Key]> };
}
