import { Type, type Static } from "@sinclair/typebox";
import { StringEnum } from "./common.ts";

export const ERROR_CODES = [
  "VALIDATION_FAILED",
  "INVALID_JSON",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "CONTRACT_RULE",
  "CHAIN_UNAVAILABLE",
  "INTERNAL",
] as const;

export const ErrorBody = Type.Object(
  {
    error: StringEnum(ERROR_CODES),
    message: Type.String(),
    errors: Type.Array(Type.String(), { minItems: 1, description: "one line per problem; what existing clients print" }),
  },
  { additionalProperties: false, $id: "ErrorBody" },
);
export type ErrorBody = Static<typeof ErrorBody>;
export type ErrorCode = ErrorBody["error"];
