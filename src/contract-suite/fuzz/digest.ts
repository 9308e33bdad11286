import { LARGEST_PAGE, paths } from "../target.ts";
import { allCollections, nextTokenId, type Known } from "./world.ts";

type WorldDigest = Awaited<ReturnType<typeof worldDigest>>;

/** What the run itself changed on purpose: its accepted mints, by collection. */
export interface OwnMints {
  /** Collection → the distinct recipients the run minted to there. */
  recipients: Map<string, Set<string>>;
  /** Items the run created, each of which must hold exactly its mint. */
  created: { address: string; tokenId: number; txHash: string }[];
}

export const itemKeyOf = (address: string, tokenId: number) => `${address.toLowerCase()}/${tokenId}`;

/** An item's whole history, newest first, read page by page at the largest page size. */
export async function wholeHistory(base: string, address: string, tokenId: number): Promise<unknown[] | undefined> {
  const events: unknown[] = [];
  for (let page = 1; page <= 50; page += 1) {
    const response = await fetch(`${base}${paths.itemEvents(address, tokenId)}?perPage=${LARGEST_PAGE}&page=${page}`);
    if (response.status !== 200) return page === 1 ? undefined : events;
    const { events: more } = (await response.json()) as { events: unknown[] };
    events.push(...more);
    if (more.length < LARGEST_PAGE) break;
  }
  return events;
}

/**
 * What the world looked like: every collection as listed, the whole history of each item the run may read, and how many
 * items the collections looked into have.
 */
export async function worldDigest(base: string, known: Pick<Known, "items" | "nextTokenIds">) {
  const collections = new Map((await allCollections(base)).map((row) => [String(row.address), row]));
  const histories = new Map<string, unknown[]>();
  for (const { address, tokenId } of known.items)
    histories.set(itemKeyOf(address, tokenId), (await wholeHistory(base, address, tokenId)) ?? []);
  const nextTokenIds = new Map<string, number>();
  for (const address of known.nextTokenIds.keys()) nextTokenIds.set(address, await nextTokenId(base, address));
  return { collections, histories, nextTokenIds };
}

/**
 * How the world after the run differs from before beyond what the run's own mints explain: a
 * collection minted into may gain at most one holder per distinct recipient and exactly the items
 * minted, nothing else; any other collection, and every history read before, must be as it was;
 * each item the run minted holds exactly its mint.
 */
export async function unexplainedChanges(
  base: string,
  before: WorldDigest,
  after: WorldDigest,
  own: OwnMints,
): Promise<string[]> {
  const problems: string[] = [];
  for (const [address, was] of before.collections) {
    const now = after.collections.get(address);
    if (!now) {
      problems.push(`collection ${address} is no longer listed`);
      continue;
    }
    const gained = own.recipients.get(address)?.size ?? 0;
    const { holders: holdersWas, ...restWas } = was;
    const { holders: holdersNow, ...restNow } = now;
    if (JSON.stringify(restWas) !== JSON.stringify(restNow))
      problems.push(`collection ${address} changed: ${firstDifference(restWas, restNow)}`);
    const grew = Number(holdersNow) - Number(holdersWas);
    if (grew < 0 || grew > gained)
      problems.push(
        `collection ${address}: holders went from ${holdersWas} to ${holdersNow}, but the run minted there to ` +
          `${gained} recipient(s)`,
      );
  }
  for (const address of after.collections.keys())
    if (!before.collections.has(address)) problems.push(`collection ${address} appeared during the run`);
  for (const [address, next] of before.nextTokenIds) {
    const created = new Set(own.created.filter((item) => item.address === address).map((item) => item.tokenId)).size;
    const now = after.nextTokenIds.get(address)!;
    if (now - next !== created)
      problems.push(
        `collection ${address} went from ${next - 1} to ${now - 1} items, but the run's accepted mints created ` +
          `${created}`,
      );
  }
  for (const [key, events] of before.histories)
    if (JSON.stringify(after.histories.get(key)) !== JSON.stringify(events))
      problems.push(`the history of ${key} changed during the run`);
  for (const { address, tokenId, txHash } of own.created.slice(0, 50)) {
    const events = (await wholeHistory(base, address, tokenId)) as { transactionHash?: string }[] | undefined;
    if (events?.length !== 1 || events[0]!.transactionHash !== txHash)
      problems.push(
        `item ${itemKeyOf(address, tokenId)}, minted by ${txHash}, holds ${events ? `${events.length} event(s)` : "no history"} instead of its mint alone`,
      );
  }
  return problems;
}

function firstDifference(was: Record<string, unknown>, now: Record<string, unknown>): string {
  const field = Object.keys({ ...was, ...now }).find((name) => JSON.stringify(was[name]) !== JSON.stringify(now[name]));
  return field ? `${field} ${JSON.stringify(was[field])} → ${JSON.stringify(now[field])}` : "its fields";
}
