import type { ValidateFunction } from "ajv";
import { apiError, ERRORS, type ApiError } from "../core/errors.ts";
import { bracketPath, createAjv, describeErrors } from "../schemas/ajv.ts";
import { Fragment, type CheckedFragment } from "../schemas/fragment.ts";
import { describeSchemaError } from "../scenario/load.ts";

let compiled: ValidateFunction | undefined;
const validate = () =>
  (compiled ??= createAjv({ useDefaults: true, discriminator: true, verbose: true }).compile(Fragment));

/** A fragment's shape checked (400 naming each bad field by its JSON path), with every default filled in. */
export function parseFragment(json: unknown): CheckedFragment {
  const copy = structuredClone(json);
  const check = validate();
  if (!check(copy)) {
    const problems = describeErrors(check.errors, { path: bracketPath, describe: describeSchemaError });
    throw invalidFragment(problems);
  }
  return copy as CheckedFragment;
}

/** A fragment the world cannot take as written: each line names the field by its JSON path. */
export function invalidFragment(problems: string[]): ApiError {
  return apiError(ERRORS.INVALID_FRAGMENT, {}, { errors: problems });
}
