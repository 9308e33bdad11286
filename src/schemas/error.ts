import { Type, type Static } from "@sinclair/typebox";
import { StringEnum } from "./common.ts";

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
  "SHUTTING_DOWN",
  "TOO_MANY_REQUESTS",
  "HEADERS_TOO_LARGE",
  "EXPECTATION_FAILED",
  "INTERNAL",
] as const;

export const ErrorBody = Type.Object(
  {
    error: StringEnum(ERROR_CODES),
    message: Type.String(),
    errors: Type.Array(Type.String(), {
      minItems: 1,
      description: "one line per problem; what existing clients print",
    }),
    txHash: Type.Optional(
      Type.String({
        pattern: "^0x[0-9a-f]{64}$",
        description:
          "MINT_PENDING, MINT_DROPPED, WRITE_PENDING and WRITE_DROPPED only: the transaction, sent but not (yet) mined",
      }),
    ),
  },
  { additionalProperties: false, $id: "ErrorBody" },
);
export type ErrorBody = Static<typeof ErrorBody>;
export type ErrorCode = ErrorBody["error"];
