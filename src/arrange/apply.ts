import type { Accounts } from "../core/accounts.ts";
import { addressOf, keyFor } from "../core/keys.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import { ChainRevert } from "../chain/revert.ts";
import { apiError, apiErrorIn, ERRORS } from "../core/errors.ts";
import { lowerAddress } from "../core/formats.ts";
import { ChainReplay } from "../scenario/chain-replay.ts";
import { listingCount } from "../scenario/chain-reads.ts";
import { Fragment, type CheckedFragment } from "../schemas/fragment.ts";
import { shapeCheck } from "../scenario/load.ts";
import type { WorldHandles } from "../core/handles.ts";
import { scenarioMetadata } from "../scenario/metadata.ts";
import { checkReferences, type Step } from "../scenario/references.ts";
import type { ArrangeResponse } from "../schemas/world.ts";
import { fundWallet } from "../chain/actions/node-state.ts";
import { WorldSavepoint } from "../chain/savepoint.ts";
import { knownWorld, seedListings, worldListings } from "./known.ts";
import { brokenRules } from "./rules.ts";

const fragmentShape = shapeCheck(Fragment);

/** A fragment the world cannot take as written: each line names the field by its JSON path. */
const invalidFragment = (problems: string[]) => apiError(ERRORS.INVALID_FRAGMENT, {}, { errors: problems });

/** What applying a fragment touches. */
export interface ArrangeParts {
  chains: ChainRegistry;
  accounts: Accounts;
  handles: WorldHandles;
  /** Base of new collections' uris. */
  baseUrl: () => string;
}

/** When and where a fragment lands: the time its "now" stands for, the base of its collections' uris. */
export interface Placement {
  now: number;
  baseUrl: string;
}

/**
 * Applies a fragment of the scenario format to the running world, all or nothing. It is checked
 * whole first: its shape and references (400), its times (now or later, 400), the contracts' rules
 * the read models can tell (422). Then, with every chain to itself (no other write lands between
 * its transactions, no read sees it half-done), a savepoint is taken and its steps are sent in time
 * order; if one still fails, the world goes back to the savepoint and the answer names the entry.
 * `placed` is given when a journal replays it; otherwise "now" is the time a block mined now would get, and its
 * collections' uris start with the simulator's base URL. `keep` runs once it is in, before anything else may see it
 * (its journal line made durable): if it throws, the fragment is taken back as if it had failed. Answers the answer,
 * and where the fragment landed (a journal replays it there).
 */
export async function applyFragment(
  parts: ArrangeParts,
  body: unknown,
  placed?: Placement,
  keep?: (placement: Placement) => Promise<unknown>,
): Promise<{ answer: ArrangeResponse; placement: Placement }> {
  const fragment = structuredClone(body) as CheckedFragment;
  const shapeProblems = fragmentShape(fragment);
  if (shapeProblems.length > 0) throw invalidFragment(shapeProblems);
  const chains = parts.chains.all().sort((a, b) => a.chainId - b.chainId);
  return holdAll(chains, async () => {
    const baseUrl = placed?.baseUrl ?? parts.baseUrl().replace(/\/+$/, "");
    const plan = await checked(fragment, parts, baseUrl);
    const placement = { now: placed?.now ?? (await worldNow(chains)), baseUrl };
    // New accounts are funded on every chain; otherwise only the chains its steps run on change.
    const touched = new Set(
      fragment.accounts.length > 0 ? chains.map((chain) => chain.chainId) : plan.steps.map((step) => step.chainId),
    );
    const changing = chains.filter((chain) => touched.has(chain.chainId)).map((chain) => chain.chainId);
    const savepoint = await WorldSavepoint.take(parts, changing).catch((error: unknown) => {
      throw apiErrorIn(error) ?? error;
    });
    try {
      const answer = await send(fragment, plan, placement, parts);
      await keep?.(placement);
      savepoint.release();
      return { answer, placement };
    } catch (error) {
      await savepoint.rollback();
      savepoint.release();
      throw apiErrorIn(error) ?? error;
    }
  });
}

/**
 * The fragment checked against the world: its steps in time order, every account it may name, its metadata as it
 * goes on chain (paths on the simulator under `baseUrl`), and the world's listings it names.
 */
async function checked(fragment: CheckedFragment, parts: ArrangeParts, baseUrl: string) {
  const { chains, handles } = parts;
  const problems: string[] = [];
  const scenario = { ...fragment, chains: chains.ids() };
  const listings = await worldListings(fragment, parts);
  const models = new Map((await chains.read()).map((read) => [read.chain.chainId, read.models]));
  const timeline = checkReferences(scenario, problems, knownWorld(parts, models, listings));
  const { steps } = timeline;
  const metadata = scenarioMetadata(scenario, problems, baseUrl);
  for (const step of steps) {
    if (step.at >= 0) continue;
    const [field, time] =
      step.kind === "collection" ? ["createdAt", step.collection.createdAt] : ["at", step.action.at];
    problems.push(`${step.path}.${field}: '${time}' is before now; a fragment's times are now or later, such as "+2h"`);
  }
  // One at a live address has no key: the chain sends as it by impersonation.
  const added = fragment.accounts.map((account, i) => {
    const key = account.address ? undefined : keyFor(account.keyLabel ?? `account/${account.name}`);
    const address = key ? addressOf(key) : lowerAddress(account.address!);
    const taken = handles.nameOf(address);
    const field = key ? "keyLabel" : "address";
    if (taken) problems.push(`accounts[${i}].${field}: it is the wallet of the world's account '${taken}'`);
    return [account.name, { address, ...(key ? { key } : {}) }] as const;
  });
  const addresses = new Map([...handles.accounts, ...added].map(([name, { address }]) => [name, address]));
  fragment.apiKeys.forEach(({ account }, i) => {
    if (handles.accounts.has(account) && !handles.accounts.get(account)!.key)
      problems.push(`apiKeys[${i}].account: account '${account}' is at an address without a key: it cannot mint`);
  });
  if (problems.length > 0) throw invalidFragment(problems);
  const broken = await brokenRules(timeline, { chains, handles, fragment, addresses, models });
  if (broken.length > 0) throw apiError(ERRORS.FRAGMENT_BREAKS_RULE, {}, { errors: broken });
  return { steps, added, addresses, metadata, listings };
}

async function send(
  fragment: CheckedFragment,
  { steps, added, metadata, listings }: Awaited<ReturnType<typeof checked>>,
  { now, baseUrl }: Placement,
  parts: ArrangeParts,
): Promise<ArrangeResponse> {
  const { chains, accounts, handles } = parts;
  const answer: ArrangeResponse = { now, accounts: {}, collections: {}, items: {}, listings: {}, timeline: [] };
  for (const [name, handle] of added) {
    await fundWallet(chains.all(), handle.address);
    handles.accounts.set(name, handle);
    answer.accounts[name] = { address: handle.address };
  }
  for (const { key: apiKey, account: name } of fragment.apiKeys) {
    const { address: wallet, key: walletKey } = handles.accounts.get(name)!;
    accounts.add({ apiKey, name, wallet, walletKey: walletKey! });
    answer.accounts[name] = { address: wallet, apiKey };
  }
  const items = new Map(fragment.items.map((item) => [item.id, item]));
  const context = { items, now, baseUrl, handles, metadata, fresh: false };
  const replays = new Map<number, ChainReplay>();
  const replayOn = async (chainId: number) => {
    let replay = replays.get(chainId);
    if (!replay) {
      replays.set(chainId, (replay = new ChainReplay(chains.get(chainId)!, context)));
      // Listing ids continue from the marketplace's count.
      replay.listingCount = await listingCount(replay.chain);
      seedListings(replay, listings);
    }
    return replay;
  };
  for (const step of steps) {
    const txHash = await (await replayOn(step.chainId)).run(step).catch((error: unknown) => {
      throw entryRefused(step, error);
    });
    const timestamp = now + step.at;
    if (step.kind === "collection") {
      const { id } = step.collection;
      answer.collections[id] = { ...handles.collections.get(id)!, txHash };
      continue;
    }
    const index = Number(/\[(\d+)\]$/.exec(step.path)![1]);
    answer.timeline[index] = { action: step.action.action, txHash, timestamp };
    if (step.action.action === "addItem") {
      const { tokenIds, ...landed } = handles.items.get(step.action.item)!;
      answer.items[step.action.item] = { ...landed, tokenIds: tokenIds.map(Number), txHash };
    }
    if (step.action.action === "list") {
      const landed = handles.listings.get(step.action.listing)!;
      answer.listings[step.action.listing] = { chainId: landed.chainId, listingId: Number(landed.listingId) };
    }
  }
  await chains.sync();
  return answer;
}

/**
 * Why an entry was not applied, naming it: a contract's refusal is 422 with its rule; an error of the catalog (a node
 * that refused the transaction or cannot do the action, a chain not there) keeps its answer, each line naming the
 * entry. Anything else is a fault of the simulator's and stays what it is.
 */
function entryRefused(step: Step, error: unknown): unknown {
  const what = step.kind === "collection" ? `creating collection '${step.collection.id}'` : step.action.action;
  const named = (line: string) => `${step.path} (${what}): ${line}`;
  if (error instanceof ChainRevert)
    return apiError(ERRORS.FRAGMENT_REVERTED, { entry: step.path }, { errors: [named(error.message)] });
  const known = apiErrorIn(error);
  return known ? known.withErrors(known.errors.map(named)) : error;
}

/** The time a block mined now would get: the latest over the chains (each chain's pending block, or its head). */
async function worldNow(chains: SimChain[]): Promise<number> {
  let now = 0;
  for (const chain of chains) {
    const pending = (await chain.request("eth_getBlockByNumber", ["pending", false])) as { timestamp?: string } | null;
    const head = await chain.publicClient.getBlock({ blockTag: "latest" });
    now = Math.max(now, Number(head.timestamp), pending?.timestamp ? Number(BigInt(pending.timestamp)) : 0);
  }
  return now;
}

/** Runs `work` holding every chain, in chain id order. */
function holdAll<T>(chains: SimChain[], work: () => Promise<T>): Promise<T> {
  return chains.reduceRight<() => Promise<T>>((inner, chain) => () => chain.hold(inner), work)();
}
