import { Type, type Static } from "@sinclair/typebox";
import { ERROR_CODES } from "../core/errors.ts";
import { Named, StringEnum } from "./common.ts";

export const ErrorBody = Named("ErrorBody", {
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
});
export type ErrorBody = Static<typeof ErrorBody>;
