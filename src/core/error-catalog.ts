import { COLLECTION_METADATA_MAX_BYTES, ITEM_METADATA_MAX_BYTES } from "./limits.ts";

// Every error the simulator answers, once: its status, its code, its message (with {placeholders}) and
// what it means. Whatever fails, in any layer (a route, the chain, a node, the journal's disk), throws one of
// these by name (`apiError(ERRORS.X, params)`), never a status; the OpenAPI document's error responses, the
// error table of docs/api.md and the fault rules' codes are derived from this catalog. Why a command refuses
// to start is the other half of the catalog (./start-errors.ts).

/** The `error` field of every error body. */
export const ERROR_CODES = [
  "VALIDATION_FAILED",
  "INVALID_JSON",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "METHOD_NOT_ALLOWED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "CONTRACT_RULE",
  "CHAIN_UNAVAILABLE",
  "MINT_PENDING",
  "MINT_DROPPED",
  "WRITE_PENDING",
  "WRITE_DROPPED",
  "NONCE_CONFLICT",
  "TRANSACTION_REFUSED",
  "WALLET_UNFUNDED",
  "SHUTTING_DOWN",
  "TOO_MANY_REQUESTS",
  "HEADERS_TOO_LARGE",
  "EXPECTATION_FAILED",
  "STORAGE_FULL",
  "CONTRACT_VIOLATION",
  "UPSTREAM_UNAVAILABLE",
  "INTERNAL",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDescriptor {
  status: number;
  code: ErrorCode;
  /** The body's `message`, with `{name}` placeholders. */
  message: string;
  /** What it means, for the documents (one sentence, the caller's view). */
  means: string;
}

/** The entries of one status and code, each told by its message and what it means (kept as literal types). */
const kind =
  <const Status extends number, const Code extends ErrorCode>(status: Status, code: Code) =>
  <const Message extends string>(message: Message, means: string) => ({ status, code, message, means });

const badRequest = kind(400, "VALIDATION_FAILED");
const unauthorized = kind(401, "UNAUTHORIZED");
const forbidden = kind(403, "FORBIDDEN");
const notFound = kind(404, "NOT_FOUND");
const conflicts = kind(409, "CONFLICT");
const tooLarge = kind(413, "PAYLOAD_TOO_LARGE");
const unsupportedMedia = kind(415, "UNSUPPORTED_MEDIA_TYPE");
const contractRule = kind(422, "CONTRACT_RULE");
const tooManyRequests = kind(429, "TOO_MANY_REQUESTS");
const chainUnavailable = kind(503, "CHAIN_UNAVAILABLE");

export const ERRORS = {
  // The request itself. The first entry of each status is what a fault rule with that status answers.
  INVALID_REQUEST: badRequest(
    "The request {part} is invalid",
    "a path, query or body field is missing, of the wrong type, out of range or unknown; `errors` names each",
  ),
  UNKNOWN_CHAIN: badRequest("Chain {chainId} is not served here", "a `chainId` this simulator does not serve"),
  INVALID_JSON: kind(400, "INVALID_JSON")(
    "The request body is not valid JSON",
    "the body is not JSON, or not in the content-encoding it names",
  ),
  NOT_HTTP: badRequest("The request is not valid HTTP", "before any operation: a request the HTTP parser cannot read"),
  MISSING_HOST: badRequest(
    "An HTTP/1.1 request needs a Host header",
    "before any operation: an HTTP/1.1 request without a `Host` header",
  ),
  WEBHOOK_URL_REFUSED: badRequest(
    "The webhook URL is not allowed",
    "a webhook URL that is not http(s), on the simulator's own port, or whose host is not loopback nor allowed by " +
      "`--webhook-hosts`",
  ),
  INVALID_FRAGMENT: badRequest(
    "The fragment is not valid for this world",
    "a fragment (POST /_sim/scenario) that is malformed, names a handle the world does not have or defines one it " +
      "has, holds metadata too large to go on chain, or has a time before now; `errors` names each by its JSON path",
  ),
  API_KEY_CONFLICT: badRequest("The {name} query and {header} header differ", "both, differing"),
  API_KEY_REQUIRED: unauthorized("An {name} query parameter or {header} header is required", "no key"),
  UNKNOWN_API_KEY: unauthorized("Unknown apiKey", "an `apiKey` this simulator does not know"),
  ADMIN_TOKEN_REQUIRED: unauthorized(
    "{what} needs the admin token",
    "`--admin-token` is set (or a JSON-RPC port is off loopback) and the request does not carry `Authorization: " +
      "Bearer <token>`",
  ),
  WALLET_NOT_MINTER: forbidden(
    "The developer wallet is not authorized on this collection",
    "the API key's developer wallet does not hold the collection's minter role",
  ),
  HOST_NOT_ALLOWED: forbidden(
    "This Host may not {act}",
    "without `--admin-token`, a `Host` other than a loopback name, an IP address, the `--public-url` host or one in " +
      "`--allowed-hosts` (what DNS rebinding would send)",
  ),
  ORIGIN_NOT_ALLOWED: forbidden(
    "This origin may not {act}",
    "a browser origin that may not change state or use the control API (`--cors`)",
  ),
  NOT_FOUND: notFound("{what} not found", "no such route, collection, item, chain, snapshot, API key or rule"),
  COLLECTION_ON_OTHER_CHAIN: notFound(
    "Collection {address} is not on chain {chainId}",
    "the collection lives on another chain than the one named",
  ),
  CONTROL_OFF: notFound(
    "Route {method} {path} not found",
    "the control API is off: the API listens off loopback and no `--admin-token` was given",
  ),
  METHOD_NOT_ALLOWED: kind(405, "METHOD_NOT_ALLOWED")("Method not allowed", "a method the path does not take"),
  REQUEST_TIMEOUT: kind(408, "VALIDATION_FAILED")(
    "The request took too long to arrive",
    "before any operation: request headers that took too long to arrive",
  ),
  CONFLICT: conflicts("{what}", "the request conflicts with the world as it is (each operation says how)"),
  NODE_CANNOT: conflicts(
    "Chain {chainId} cannot {action}",
    "a chain's node (`--rpc-url`) lacks the dev method the action needs, or no longer holds what it needs",
  ),
  MINT_DROPPED: kind(409, "MINT_DROPPED")(
    "The mint's transaction was dropped before it was mined",
    "the mint was sent, but the chain dropped its transaction before mining it (rewound by `evm_revert`, its pool " +
      "cleared); nothing was minted, `txHash` names it: send it again",
  ),
  WRITE_DROPPED: kind(409, "WRITE_DROPPED")(
    "The write's transaction was dropped before it was mined",
    "the write was sent, but the chain dropped its transaction before mining it (rewound by `evm_revert`, its pool " +
      "cleared); nothing changed, `txHash` names it",
  ),
  NONCE_CONFLICT: kind(409, "NONCE_CONFLICT")(
    "Another writer kept taking the wallet's nonce; send again",
    "on a node (`--rpc-url`), another process sending for the same wallet took its nonce every time a fresh one was " +
      "tried; nothing was sent: send it again",
  ),
  TRANSACTION_REFUSED: kind(409, "TRANSACTION_REFUSED")(
    "The node refused the transaction",
    "on a node (`--rpc-url`), the node refused the transaction by its own rules; nothing was sent",
  ),
  BODY_TOO_LARGE: tooLarge(
    "The request body is too large",
    "a body over 100 kB, or a fragment of the scenario format over 10 MB",
  ),
  METADATA_TOO_LARGE: tooLarge(
    "The {what}'s metadata is too large to go on chain",
    `an item's metadata over ${ITEM_METADATA_MAX_BYTES.toLocaleString("en")} bytes, or a collection's over ` +
      `${COLLECTION_METADATA_MAX_BYTES.toLocaleString("en")}, as it goes on chain (compact JSON without the fields at ` +
      `their defaults)`,
  ),
  UNSUPPORTED_MEDIA_TYPE: unsupportedMedia(
    "Send the body as {expected}",
    "a body that is not JSON (or, for the mint, a form)",
  ),
  UNSUPPORTED_ENCODING: unsupportedMedia(
    "The body's content-encoding is not supported",
    "a body in a content-encoding the server does not decode (it takes gzip, deflate and br, in any case)",
  ),
  EXPECTATION_FAILED: kind(417, "EXPECTATION_FAILED")(
    "Expect: '{expect}' is not supported (only 100-continue)",
    "before any operation: an `Expect` header other than `100-continue`",
  ),
  CONTRACT_RULE: contractRule(
    "The collection contract refused {what}",
    "the contract refuses: a supply above the maximum, a royalty of 30% or more, a role it will not change",
  ),
  FRAGMENT_BREAKS_RULE: contractRule(
    "The fragment breaks a rule of the contracts; nothing was sent",
    "a fragment whose entries a contract would refuse (a balance, a supply, the minter role, coin for a purchase), " +
      "checked before anything is sent; `errors` names each entry and its rule",
  ),
  FRAGMENT_REVERTED: contractRule(
    "The contract refused {entry}; nothing of the fragment was kept",
    "a fragment entry's transaction reverted; the world went back to where it was before the fragment, and " +
      "`errors` names the entry and the contract's reason",
  ),
  SUPPLY_ABOVE_MAX: contractRule(
    "initialSupply is above maximumSupply",
    "an item whose initial supply is above its maximum supply (the contract refuses it)",
  ),
  TOO_MANY_UNKNOWN_KEYS: tooManyRequests(
    "Too many unknown apiKeys from this address",
    "more than 100 unknown `apiKey`s from one address within a minute; retry after `Retry-After` seconds",
  ),
  RATE_LIMITED: tooManyRequests(
    "Rate limited (fault rule)",
    "a fault rule's rate limit; retry after `Retry-After` seconds",
  ),
  HEADERS_TOO_LARGE: kind(431, "HEADERS_TOO_LARGE")(
    "The request headers are too large",
    "before any operation: request headers over Node's limit (16 kB)",
  ),
  INTERNAL: kind(500, "INTERNAL")(
    "The simulator failed; this is a bug in it",
    "a bug in the simulator; never an answer to anything a caller sent",
  ),
  // Only `nft-sim proxy` answers these: what went wrong between it and the upstream it passes requests on to.
  UPSTREAM_VIOLATION: kind(502, "CONTRACT_VIOLATION")(
    "The upstream's answer ({status}) breaks the interface: {first}",
    "`nft-sim proxy --strict`: the answer of the `--upstream` breaks the contract suite's checks; `errors` names each",
  ),
  UPSTREAM_UNREACHABLE: kind(502, "UPSTREAM_UNAVAILABLE")(
    "The upstream {upstream} did not answer",
    "`nft-sim proxy`: the `--upstream` refused the connection, dropped it or did not answer in time",
  ),
  CHAIN_UNAVAILABLE: chainUnavailable(
    "A chain did not answer as it should",
    "a chain did not take the transaction, or a node (`--rpc-url`) does not answer",
  ),
  CHAIN_DOWN: chainUnavailable("Chain {chainId} does not answer", "a chain's node (`--rpc-url`) does not answer"),
  CHAIN_REPLACED: chainUnavailable(
    "Chain {chainId} is no longer the chain the simulator loaded; its answers would be wrong",
    "a chain's node (`--rpc-url`) came back as another chain (restarted without its state)",
  ),
  WALLET_UNFUNDED: kind(503, "WALLET_UNFUNDED")(
    "No wallet that may sign it can pay for gas on chain {chainId}: fund {wallets} there",
    "on a node (`--keys`), no wallet that may sign it (the API key's pool) can pay its gas; fund those named",
  ),
  LOADING: chainUnavailable(
    "The simulator is still loading its world",
    "the world is still loading (`Retry-After: 1`)",
  ),
  LOAD_FAILED: chainUnavailable("The chains could not load the world", "the chains failed to load the world"),
  SHUTTING_DOWN: kind(503, "SHUTTING_DOWN")(
    "The simulator is shutting down",
    "the simulator is stopping (with `Connection: close`); the request was not started",
  ),
  MINT_PENDING: kind(504, "MINT_PENDING")(
    "The mint was sent but its block did not come in time",
    "the mint was sent but its block did not come within `--mint-timeout`; `txHash` names it, and the item appears, " +
      "complete, once it is mined",
  ),
  WRITE_PENDING: kind(504, "WRITE_PENDING")(
    "The write was sent but its block did not come in time",
    "the write was sent but its block did not come within `--mint-timeout`; `txHash` names it, and it takes effect " +
      "once it is mined",
  ),
  STORAGE_FULL: kind(507, "STORAGE_FULL")(
    "The journal in {dir} cannot be written ({code}): nothing was changed",
    "with `--state`, the journal's disk is full, read-only or failing: nothing was changed and reads still answer; " +
      "writes are taken again once the disk takes them (`GET /_sim/state`)",
  ),
} as const satisfies Record<string, ErrorDescriptor>;

export type ErrorName = keyof typeof ERRORS;
