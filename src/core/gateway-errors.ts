import { catalogEntry as error } from "./error-codes.ts";

// The catalog's entries (./error-catalog.ts spreads them into ERRORS) that only `nft-sim proxy` answers: what went
// wrong between it and the upstream it passes requests on to.

export const GATEWAY_ERRORS = {
  UPSTREAM_VIOLATION: error(
    502,
    "CONTRACT_VIOLATION",
    "The upstream's answer ({status}) breaks the interface: {first}",
    "`nft-sim proxy --strict`: the answer of the `--upstream` breaks the contract suite's checks; `errors` names each",
  ),
  UPSTREAM_UNREACHABLE: error(
    502,
    "UPSTREAM_UNAVAILABLE",
    "The upstream {upstream} did not answer",
    "`nft-sim proxy`: the `--upstream` refused the connection, dropped it or did not answer in time",
  ),
};
