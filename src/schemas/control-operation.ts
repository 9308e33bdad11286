import { ERRORS, type ErrorDescriptor } from "../core/errors.ts";
import type { Operation } from "./operations.ts";

const tag = "Control";

/**
 * What the control API's guard answers before any operation (src/control/guard.ts): the admin token, the Host, the
 * browser origin, the body's type.
 */
const GUARD = [
  ERRORS.ADMIN_TOKEN_REQUIRED,
  ERRORS.HOST_NOT_ALLOWED,
  ERRORS.ORIGIN_NOT_ALLOWED,
  ERRORS.CONTROL_OFF,
  ERRORS.UNSUPPORTED_MEDIA_TYPE,
  ERRORS.UNSUPPORTED_ENCODING,
];

/** What the body parser answers on a POST, whatever the operation does with the body. */
const BODY_READ = [ERRORS.INVALID_JSON, ERRORS.BODY_TOO_LARGE];

/** Every request meets the app's readiness and its shutdown drain. */
const UNAVAILABLE = [ERRORS.LOADING, ERRORS.SHUTTING_DOWN];

/** A control operation as a table writes it: its key is its operationId, and its tag is the control API's. */
type ControlEntry = Omit<Operation, "operationId" | "tag">;

type ControlOperations<T> = {
  [Id in keyof T & string]: Omit<T[Id], "errors"> & { operationId: Id; tag: typeof tag; errors: ErrorDescriptor[] };
};

/** Control operations by id, in the table's order: each with its own errors and those every control request may meet. */
export function controlOperations<const T extends Record<string, ControlEntry>>(table: T): ControlOperations<T> {
  const described = Object.entries(table).map(([operationId, op]) => {
    const errors = [...new Set([...GUARD, ...(op.method === "post" ? BODY_READ : []), ...op.errors, ...UNAVAILABLE])];
    return [operationId, { ...op, operationId, tag, errors }];
  });
  return Object.fromEntries(described) as ControlOperations<T>;
}
