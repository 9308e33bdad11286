import { operation as apiOperation, type Operation } from "./operations.ts";

export const tag = "Control";

/** What the control API's guard answers before any operation (src/control/guard.ts): the admin token, the Host, the browser origin, the body's type. */
const GUARD = {
  401: "`--admin-token` is set and the request does not carry `Authorization: Bearer <token>`.",
  403: "A browser origin that may not use the control API (`--cors`), or, without `--admin-token`, a `Host` other than a loopback name, an IP address, the `--public-url` host or one in `--allowed-hosts`.",
  404: "The control API is off: the API listens off loopback and no `--admin-token` was given.",
  415: "A body that is not `application/json` (a request without a body needs no content-type), or one in a content-encoding the server does not decode.",
};

/** What the body parser answers on a POST, whatever the operation does with the body. */
const BODY_READ: Record<number, string> = {
  400: "`INVALID_JSON`: the body is not valid JSON.",
  413: "The body is too large.",
};

/** Every request meets the app's readiness and its shutdown drain. */
const UNAVAILABLE =
  "The simulator is still loading its world, or is shutting down (`SHUTTING_DOWN`, with `Connection: close`).";

/** A control operation: its own errors, and those every control request may meet. */
export const controlOperation = <const T extends Operation>(op: T) => {
  const own = op.errors as Record<number, string>;
  const unavailable = own[503]
    ? `${own[503]} Or: ${UNAVAILABLE.charAt(0).toLowerCase()}${UNAVAILABLE.slice(1)}`
    : UNAVAILABLE;
  const errors: Record<number, string> = {
    ...GUARD,
    ...(op.method === "post" ? BODY_READ : {}),
    ...own,
    503: unavailable,
  };
  return apiOperation({ ...op, errors });
};
