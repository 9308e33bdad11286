import { randomBytes } from "node:crypto";
import type { Address, Hex, TransactionReceipt } from "viem";
import type { Accounts } from "../accounts.ts";
import { createCollection as createCollectionOnChain, createdCollection } from "../chain/actions/create-collection.ts";
import { grantMinter, hasMinterRole, revokeMinter } from "../chain/actions/minter-role.ts";
import { nodeAccounts, openAccount } from "../chain/actions/node-state.ts";
import { lowerAddress } from "../chain/address.ts";
import { addressOf, keyFor } from "../chain/keys.ts";
import { ChainRevert } from "../chain/revert.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import type { ApiAccount } from "../config.ts";
import { ApiError, notFound } from "../errors.ts";
import { encodeCollectionDescription, MetadataTooLarge } from "../metadata/codec.ts";
import { slugify } from "../metadata/slug.ts";
import type { CollectionDescription } from "../schemas/on-chain-metadata.ts";
import { collectionDescription } from "../views/descriptions.ts";
import type { CreateCollectionBody } from "../schemas/control.ts";
import { collectionUri } from "../schemas/metadata.ts";
import { servedChain } from "../services/mint.ts";
import { minedWithin } from "../services/pending-mint.ts";
import type { SimChain } from "../chain/sim-chain.ts";

/** What editing the world touches: the chains (through chain actions) and the API keys. */
export interface WorldParts {
  chains: ChainRegistry;
  accounts: Accounts;
  /** Base of collection uris. */
  baseUrl: () => string;
  /** How long a control write waits for its block before answering 504 WRITE_PENDING (the mint's `--mint-timeout`). */
  writeTimeoutMs: number;
}

/** Coin a new API key's wallet gets on each chain, for gas. */
const NEW_WALLET_BALANCE = 10n ** 22n;

function accountOf(accounts: Accounts, apiKey: string): ApiAccount {
  const account = accounts.byApiKey(apiKey);
  if (!account) throw notFound(`API key '${apiKey}'`);
  return account;
}

/** A collection made through the factory, owned by the `owner` key's wallet, with its metadata on chain and minters. */
export async function createCollection(
  { chains, accounts, baseUrl, writeTimeoutMs }: WorldParts,
  body: CreateCollectionBody,
) {
  const chain = servedChain(chains, body.chainId);
  await chain.sync();
  const owner = accountOf(accounts, body.owner);
  const minters = body.minters.map((apiKey) => accountOf(accounts, apiKey).wallet);
  const taken = new Set([...chain.models.collections.values()].map((record) => collectionDescription(record).slug));
  const base = slugify(body.name);
  let slug = base;
  for (let n = 2; taken.has(slug); n += 1) slug = `${base}-${n}`;
  const uri = collectionUri(baseUrl(), chain.chainId, slug);
  const { description, genre, image, website, isVerified } = body;
  const metadata = describe(body.name, { description, genre, image, imageHash: "", slug, website, isVerified });
  const params = { from: owner.wallet, name: body.name, uri, owner: owner.wallet, minters, metadata };
  const txHash = await createCollectionOnChain(chain, params, { dryRun: true });
  const address = createdCollection(chain, await minedOrTold(chain, txHash, writeTimeoutMs));
  return { chainId: chain.chainId, address, txHash, slug };
}

/** The collection's description as it goes on chain, or 413 if it is too large to (before anything is sent). */
function describe(name: string, description: CollectionDescription): Hex {
  try {
    return encodeCollectionDescription(name, description);
  } catch (error) {
    if (!(error instanceof MetadataTooLarge)) throw error;
    throw new ApiError(413, "PAYLOAD_TOO_LARGE", "The collection's metadata is too large to go on chain", [
      `body: ${error.message}; shorten its description, image or website`,
    ]);
  }
}

/** The collection's owner grants (or revokes) the minter role to an API key's wallet, on chain. */
export async function setMinterRole(
  parts: WorldParts,
  address: Address,
  apiKey: string,
  grant: boolean,
  chainId?: number,
) {
  const collection = lowerAddress(address);
  const lookup = await parts.chains.findCollection(collection, chainId);
  if (!("found" in lookup)) throw notFound(`Collection ${collection}${chainId ? ` on chain ${chainId}` : ""}`);
  const chain = lookup.found;
  const wallet = accountOf(parts.accounts, apiKey).wallet;
  const admin = chain.models.collections.get(collection)!.owner;
  const held = new Set([...(await nodeAccounts(chain)), ...parts.accounts.list().map((account) => account.wallet)]);
  if (!held.has(admin)) {
    throw new ApiError(409, "CONFLICT", "The collection's owner is not a wallet the simulator holds", [
      `owner ${admin} of ${collection} is not one of the simulator's wallets`,
    ]);
  }
  const params = { admin, collection, wallet };
  const txHash: Hex = await (grant ? grantMinter : revokeMinter)(chain, params, { dryRun: true }).catch(
    (error: unknown) => {
      throw error instanceof ChainRevert
        ? new ApiError(422, "CONTRACT_RULE", "The collection refused the role change", [error.message])
        : error;
    },
  );
  await minedOrTold(chain, txHash, parts.writeTimeoutMs);
  return {
    collectionAddress: collection,
    chainId: chain.chainId,
    wallet,
    isMinter: await hasMinterRole(chain, { collection, wallet }),
    txHash,
  };
}

/**
 * A control write's receipt once its block is indexed, within the timeout. Otherwise 504
 * WRITE_PENDING with its hash (it takes effect once mined), or 409 WRITE_DROPPED if the chain dropped it: never an answer that waits on a stalled chain.
 */
async function minedOrTold(chain: SimChain, hash: Hex, timeoutMs: number): Promise<TransactionReceipt> {
  const outcome = await minedWithin(chain, hash, timeoutMs);
  if ("receipt" in outcome) return outcome.receipt;
  if (outcome.where === "gone") {
    throw new ApiError(
      409,
      "WRITE_DROPPED",
      "The write's transaction was dropped before it was mined",
      [
        `transaction ${hash} left the chain without being mined (the chain was rewound, e.g. evm_revert, or its pool cleared); nothing changed: send it again`,
      ],
      { txHash: hash },
    );
  }
  throw new ApiError(
    504,
    "WRITE_PENDING",
    "The write was sent but its block did not come in time",
    [`transaction ${hash} was not mined within ${timeoutMs} ms; it takes effect once it is`],
    { txHash: hash },
  );
}

/** A new API key whose developer wallet (its key derived from the name) is funded on every chain. */
export async function createApiKey(
  parts: WorldParts,
  name: string,
  apiKey = `sim-${name}-${randomBytes(6).toString("hex")}`,
): Promise<ApiAccount> {
  if (parts.accounts.byName(name))
    throw new ApiError(409, "CONFLICT", `An account named '${name}' exists`, [
      `the name '${name}' is taken; pick another`,
    ]);
  const walletKey = keyFor(`api-key/${name}`);
  const account: ApiAccount = { apiKey, name, walletKey, wallet: addressOf(walletKey) };
  for (const chain of parts.chains.all()) await openAccount(chain, account.wallet, NEW_WALLET_BALANCE);
  parts.accounts.add(account);
  return account;
}
