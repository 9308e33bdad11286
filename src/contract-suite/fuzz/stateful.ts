import type { ItemEvent } from "../../schemas/item-event.ts";
import type { MintResponse } from "../../schemas/item.ts";
import { ZERO_ADDRESS } from "../answers/page-rules.ts";
import { paths } from "../target.ts";
import { itemKeyOf, type OwnMints } from "./digest.ts";
import type { HistoryLengths } from "./properties.ts";

/**
 * Stateful: after an accepted mint, read the item's history (it holds the mint and nothing else:
 * from the zero address to the recipient, the supply asked for), then its collection (it answers,
 * and where it serves its items' metadata, `<uri>/<tokenId>` describes the item just minted).
 * Records the mint, so the digest and the page checks account for it.
 */
export async function readBack(
  base: string,
  minted: MintResponse,
  own: OwnMints,
  lengths: HistoryLengths,
  servesMetadata: boolean,
): Promise<string[]> {
  const problems: string[] = [];
  const collection = minted.collectionAddress.toLowerCase();
  for (const tokenId of minted.tokenIds) {
    own.created.push({ address: collection, tokenId, txHash: minted.txHash });
    lengths.set(itemKeyOf(collection, tokenId), Promise.resolve(1));
  }
  own.recipients.set(collection, (own.recipients.get(collection) ?? new Set()).add(minted.recipient.toLowerCase()));

  const [first] = minted.tokenIds;
  const history = await fetch(`${base}${paths.itemEvents(collection, first!)}`);
  const events = history.status === 200 ? ((await history.json()) as { events: ItemEvent[] }).events : undefined;
  const amount = minted.item.isStackable ? String(minted.item.initialSupply) : "1";
  const mint = events?.[0];
  if (!events) problems.push(`minted ${minted.txHash}, but the history of token ${first} answers ${history.status}`);
  else if (events.length !== 1 || mint!.transactionHash !== minted.txHash)
    problems.push(
      `minted ${minted.txHash}, but the history of token ${first} holds ` +
        `${events.map((e) => e.transactionHash).join(", ") || "nothing"}`,
    );
  else if (mint!.from !== ZERO_ADDRESS || mint!.to !== minted.recipient.toLowerCase() || mint!.amount !== amount)
    problems.push(
      `the mint of token ${first} reads ${mint!.event} ${mint!.amount} from ${mint!.from} to ${mint!.to}, not ` +
        `${amount} from the zero address to ${minted.recipient}`,
    );

  const read = await fetch(`${base}${paths.collection(collection)}`);
  if (read.status !== 200) return [...problems, `minted in ${collection}, which then answers ${read.status}`];
  const { uri } = ((await read.json()) as { collection: { uri: string } }).collection;
  if (!servesMetadata) return problems;
  const metadata = await fetch(`${uri}/${first}`);
  const described = metadata.status === 200 ? ((await metadata.json()) as { name?: string }) : undefined;
  if (described?.name !== minted.item.name)
    problems.push(
      `${uri}/${first} answers ${metadata.status} ${described ? `naming '${described.name}'` : ""}, not the item just minted ('${minted.item.name}')`,
    );
  return problems;
}
