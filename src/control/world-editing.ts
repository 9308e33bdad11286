import { randomBytes } from "node:crypto";
import type { Address, Hex } from "viem";
import { apiKeyAccount, type Accounts } from "../core/accounts.ts";
import { createCollection as createCollectionOnChain, createdCollection } from "../chain/actions/create-collection.ts";
import { grantMinter, hasMinterRole, revokeMinter } from "../chain/actions/minter-role.ts";
import { fundWallet, nodeAccounts } from "../chain/actions/node-state.ts";
import { lowerAddress, slugify } from "../core/formats.ts";
import { ChainRevert } from "../chain/revert.ts";
import type { ApiAccount } from "../core/config.ts";
import { apiError, conflict, ERRORS, found } from "../core/errors.ts";
import { encodedWithin, encodeCollectionDescription } from "../metadata/codec.ts";
import { collectionDescription } from "../views/descriptions.ts";
import type { CreateCollectionBody } from "../schemas/control.ts";
import { collectionUri } from "../schemas/metadata.ts";
import { servedChain } from "../services/mint-item.ts";
import { minedWithin } from "../services/pending-write.ts";
import type { ArrangeParts } from "../arrange/apply.ts";

/** What editing the world touches: what a fragment does (the chains, the API keys, the world's handles, uris' base). */
export interface WorldParts extends ArrangeParts {
  /** How long a control write waits for its block before answering 504 WRITE_PENDING (the mint's `--mint-timeout`). */
  writeTimeoutMs: number;
}

function accountOf(accounts: Accounts, apiKey: string): ApiAccount {
  return found(accounts.byApiKey(apiKey), `API key '${apiKey}'`);
}

/** A collection made through the factory, owned by the `owner` key's wallet, with its metadata on chain and minters. */
export async function createCollection(
  { chains, accounts, baseUrl, writeTimeoutMs }: WorldParts,
  body: CreateCollectionBody,
) {
  const chain = servedChain(chains, body.chainId);
  const { collections } = await chain.read();
  const owner = accountOf(accounts, body.owner);
  const minters = body.minters.map((apiKey) => accountOf(accounts, apiKey).wallet);
  const taken = new Set([...collections.values()].map((record) => collectionDescription(record).slug));
  const base = slugify(body.name);
  let slug = base;
  for (let n = 2; taken.has(slug); n += 1) slug = `${base}-${n}`;
  const uri = collectionUri(baseUrl(), chain.chainId, slug);
  const { description, genre, image, website, isVerified } = body;
  const described = { description, genre, image, imageHash: "", slug, website, isVerified };
  const encode = () => encodeCollectionDescription(body.name, described);
  const metadata = encodedWithin(encode, "body", "description, image or website");
  const params = { from: owner.wallet, name: body.name, uri, owner: owner.wallet, minters, metadata };
  const sent = await createCollectionOnChain(chain, params, { dryRun: true });
  // On a node, the write may have been sent again (another writer took its nonce): the hash of what was mined.
  const receipt = await minedWithin(chain, sent, writeTimeoutMs, "write");
  return { chainId: chain.chainId, address: createdCollection(chain, receipt), txHash: receipt.transactionHash, slug };
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
  if (!("found" in lookup))
    throw apiError(ERRORS.NOT_FOUND, { what: `Collection ${collection}${chainId ? ` on chain ${chainId}` : ""}` });
  const { chain, models } = lookup.found;
  const wallet = accountOf(parts.accounts, apiKey).wallet;
  const admin = models.collections.get(collection)!.owner;
  const held = new Set([...(await nodeAccounts(chain)), ...parts.accounts.list().map((account) => account.wallet)]);
  if (!held.has(admin))
    throw conflict(
      "The collection's owner is not a wallet the simulator holds",
      `owner ${admin} of ${collection} is not one of the simulator's wallets`,
    );
  const params = { admin, collection, wallet };
  const sent: Hex = await (grant ? grantMinter : revokeMinter)(chain, params, { dryRun: true }).catch(
    (error: unknown) => {
      throw error instanceof ChainRevert
        ? apiError(ERRORS.CONTRACT_RULE, { what: "the role change" }, { errors: [error.message] })
        : error;
    },
  );
  const { transactionHash } = await minedWithin(chain, sent, parts.writeTimeoutMs, "write");
  return {
    collectionAddress: collection,
    chainId: chain.chainId,
    wallet,
    isMinter: await hasMinterRole(chain, { collection, wallet }),
    txHash: transactionHash,
  };
}

/** Refused (409) if an API key or a handle of the world already has the name. */
function checkNameFree(parts: WorldParts, name: string): void {
  if (parts.accounts.byName(name) || parts.handles.accounts.has(name))
    throw conflict(`An account named '${name}' exists`, `the name '${name}' is taken; pick another`);
}

/** A new API key for an account `name`, refused (409) if the name is taken. */
export function newApiKey(parts: WorldParts, name: string): string {
  checkNameFree(parts, name);
  return `sim-${name}-${randomBytes(6).toString("hex")}`;
}

/**
 * A new API key whose developer wallet (its key derived from the name) is funded on every chain; the world names its
 * account.
 */
export async function createApiKey(
  parts: WorldParts,
  name: string,
  apiKey = newApiKey(parts, name),
): Promise<ApiAccount> {
  checkNameFree(parts, name);
  const account = apiKeyAccount(name, apiKey);
  await fundWallet(parts.chains.all(), account.wallet);
  parts.accounts.add(account);
  parts.handles.accounts.set(name, { address: account.wallet, key: account.walletKey });
  return account;
}
