import { addItem, addItems, createdTokenIds } from "../chain/actions/add-item.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import type { ApiAccount, SimulatorOptions } from "../core/config.ts";
import { ChainRevert } from "../chain/revert.ts";
import { apiError, apiErrorIn, ERRORS, oneLine } from "../core/errors.ts";
import type { MintResponse } from "../schemas/item.ts";
import { mintAnswer, unknownChain, type PlannedMint } from "./mint-plan.ts";
import { minedWithin } from "./pending-write.ts";

export interface MintDeps extends Pick<SimulatorOptions, "mintTimeoutMs"> {
  chains: ChainRegistry;
}

/**
 * Mints a planned item (`planMint`) as the account's developer wallet. The collection contract decides whether the
 * wallet may (its minter role); the call is dry-run first so a refused mint changes nothing on chain. The item's
 * description goes on chain with it (ItemDescribed), so every instance reading the chain knows the item whole.
 * Answers once the block is indexed; if the block does not come in time, 504 with the hash (or 409 if the chain
 * dropped it).
 */
export async function sendMint(
  { chains, mintTimeoutMs }: MintDeps,
  account: ApiAccount,
  mint: PlannedMint,
): Promise<MintResponse> {
  const target = servedChain(chains, mint.chainId);
  const hash = await sendAddItem(target, account, mint).catch((error: unknown) => {
    throw mintRefused(error, account);
  });
  const receipt = await minedWithin(target, hash, mintTimeoutMs, "mint");
  if (receipt.status !== "success") throw contractRefused(`transaction ${receipt.transactionHash} reverted`);
  // On a node, the mint may have been sent again (another writer took its nonce): the hash of what was mined.
  return mintAnswer(mint, receipt.transactionHash, createdTokenIds(target, receipt));
}

/**
 * What the chain said to the mint, as the API answers it: the contract's refusal is 403 when the wallet lacks the
 * minter role, else 422 with the contract's rule; the chain's, a node's or the journal's error of the catalog stays what
 * it is, and anything else is a chain that did not take it (503).
 */
function mintRefused(error: unknown, account: ApiAccount) {
  if (!(error instanceof ChainRevert))
    return apiErrorIn(error) ?? apiError(ERRORS.CHAIN_UNAVAILABLE, {}, { errors: [oneLine(error)] });
  if (error.errorName === "AccessControlUnauthorizedAccount") {
    const line = `developer wallet ${account.wallet} of API key '${account.name}' does not hold the collection's minter role`;
    return apiError(ERRORS.WALLET_NOT_MINTER, {}, { errors: [line] });
  }
  return contractRefused(error.message);
}

const contractRefused = (line: string) => apiError(ERRORS.CONTRACT_RULE, { what: "the mint" }, { errors: [line] });

function sendAddItem(chain: SimChain, account: ApiAccount, { collection, recipient, item, metadata }: PlannedMint) {
  const common = {
    from: account.wallet,
    collection,
    to: recipient,
    royaltyPerMille: BigInt(item.royaltyFee),
    metadata,
  };
  // Signed by any wallet of the key's pool (a keys file may give it several): each holds the minter role.
  const dryRun = { dryRun: true, pooled: true };
  if (item.isStackable) {
    const supply = { initialSupply: BigInt(item.initialSupply), maxSupply: BigInt(item.maximumSupply) };
    return addItem(chain, { ...common, ...supply }, dryRun);
  }
  return addItems(chain, { ...common, count: BigInt(item.initialSupply) }, dryRun);
}

/** The chain a request names, or a 400 that lists the chains served here. */
export function servedChain(chains: ChainRegistry, chainId: number): SimChain {
  const found = chains.get(chainId);
  if (found) return found;
  throw unknownChain(chainId, chains.ids());
}
