import { Type, type Static } from "@sinclair/typebox";

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
    error: Type.Union(ERROR_CODES.map((code) => Type.Literal(code))),
    message: Type.String(),
    errors: Type.Array(Type.String(), { minItems: 1, description: "one line per problem; what existing clients print" }),
  },
  { additionalProperties: false, $id: "ErrorBody" },
);
export type ErrorBody = Static<typeof ErrorBody>;
export type ErrorCode = ErrorBody["error"];
