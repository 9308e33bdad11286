import { ERRORS, type ErrorDescriptor } from "../core/errors.ts";
import { operation as apiOperation, type Operation } from "./operations.ts";

export const tag = "Control";

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

/** A control operation: its own errors, and those every control request may meet. */
export const controlOperation = <const T extends Operation>(op: T) => {
  const errors: ErrorDescriptor[] = [
    ...new Set([...GUARD, ...(op.method === "post" ? BODY_READ : []), ...op.errors, ...UNAVAILABLE]),
  ];
  return apiOperation({ ...op, errors });
};
