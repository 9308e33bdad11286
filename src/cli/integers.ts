import { usageError } from "./usage-error.ts";

/** A whole number a flag or environment variable gave as text, within [min, max]. */
export function integerOption(flag: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(text);
  if (!/^[0-9]+$/.test(text) || value < min || value > max) {
    throw usageError(`${flag}: '${text}' is not a valid number (an integer from ${min} to ${max})`);
  }
  return value;
}
