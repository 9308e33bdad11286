import type { AbiEvent, Address, Hex } from "viem";
import { lowerAddress } from "../core/formats.ts";
import { advanceHead, applyLogs } from "../indexer/apply.ts";
import type { DecodedLog, IndexedEventName, IndexedLog } from "../indexer/log-source.ts";
import { emptyModels, type ChainFacts, type ChainModels, type ReadModels } from "../indexer/models.ts";

/** The file beside the response snapshots that the MSW handlers' world is folded from. */
export const WORLD_FILE = "world.json";

/** Each event's arguments, in the order the contract declares them: [name, Solidity type]. */
type EventArgs = Record<string, [name: string, type: string][]>;

/** An argument as JSON writes it: a whole number as decimal text (a list of them, a list of texts). */
type ArgText = string | boolean | string[];

/** One followed log as an indexer reads it: its event, emitter, block, place, transaction, and arguments. */
type LogLine = [
  event: IndexedEventName,
  address: Address,
  blockNumber: number,
  logIndex: number,
  transactionHash: Hex,
  args: ArgText[],
];

/** What a chain's logs are folded with: its fixed facts, its head, its blocks' times, its followed logs. */
export interface ChainFile {
  chainId: number;
  factory: Address;
  marketplace: Address;
  currencies: { address: Address; decimals: number; usdPrice: number }[];
  head: { blockNumber: number; timestamp: number };
  /** The time of each block with logs: [blockNumber, timestamp]. */
  blocks: [number, number][];
  logs: LogLine[];
}

/** A world as the MSW handlers fold it: each chain's followed logs, and the events they are decoded by. */
export interface WorldFile {
  description: string;
  events: EventArgs;
  chains: ChainFile[];
}

/** A chain as an export takes it from a running simulator: its read models, and the logs they were folded from. */
export interface FollowedChain {
  models: ReadModels;
  logs: DecodedLog[];
  /** The time of each block with logs. */
  times: ReadonlyMap<bigint, number>;
}

/**
 * The world file's text: one log to a line, so that it reads and compares well. Only the logs the models come from
 * (the factory's, the marketplace's, the collections'), in chain order.
 */
export function worldFileText(events: readonly AbiEvent[], chains: readonly FollowedChain[]): string {
  const eventArgs: EventArgs = Object.fromEntries(
    events.map(({ name, inputs }) => [name, inputs.map((input) => [input.name!, input.type])]),
  );
  const chainText = ({ models, logs, times }: FollowedChain) => {
    const { chainId, factory, marketplace, currencies } = models.facts;
    const followed = new Set<string>([factory, marketplace, ...models.collections.keys()]);
    const kept = logs.filter((log) => followed.has(lowerAddress(log.address)));
    const blocks = [...new Set(kept.map((log) => log.blockNumber))].map((number) => [
      Number(number),
      times.get(number)!,
    ]);
    const lines = kept.map((log) => {
      const args = log.args as Record<string, unknown>;
      const line: LogLine = [
        log.eventName,
        lowerAddress(log.address),
        Number(log.blockNumber),
        log.logIndex,
        log.transactionHash,
        eventArgs[log.eventName]!.map(([name]) => argText(args[name])),
      ];
      return JSON.stringify(line);
    });
    return [
      "    {",
      `      "chainId": ${chainId}, "factory": ${JSON.stringify(factory)}, "marketplace": ${JSON.stringify(marketplace)},`,
      `      "currencies": ${JSON.stringify([...currencies].map(([address, currency]) => ({ address, ...currency })))},`,
      `      "head": ${JSON.stringify(models.head)},`,
      `      "blocks": ${JSON.stringify(blocks)},`,
      `      "logs": [\n        ${lines.join(",\n        ")}\n      ]`,
      "    }",
    ].join("\n");
  };
  return [
    "{",
    `  "description": ${JSON.stringify(
      "The world the MSW handlers answer from (nft-service-simulator/msw): each chain's followed logs, folded by the " +
        "simulator's own reducers; regenerate with npm run fixtures:export.",
    )},`,
    `  "events": ${JSON.stringify(eventArgs)},`,
    `  "chains": [\n${chains.map(chainText).join(",\n")}\n  ]`,
    "}\n",
  ].join("\n");
}

/** Each chain's read models, folded from its logs by the indexer's reducers, as the simulator's index folds them. */
export function foldWorld({ events, chains }: WorldFile): ChainModels[] {
  return chains.map((chain) => {
    const models = emptyModels({
      chainId: chain.chainId,
      factory: chain.factory,
      marketplace: chain.marketplace,
      currencies: new Map(chain.currencies.map(({ address, decimals, usdPrice }) => [address, { decimals, usdPrice }])),
    } satisfies ChainFacts);
    const logs = chain.logs.map(
      ([eventName, address, blockNumber, logIndex, transactionHash, args]) =>
        ({
          eventName,
          address,
          blockNumber: BigInt(blockNumber),
          logIndex,
          transactionHash,
          args: Object.fromEntries(events[eventName]!.map(([name, type], i) => [name, argValue(args[i]!, type)])),
        }) as IndexedLog,
    );
    applyLogs(models, logs, new Map(chain.blocks.map(([number, timestamp]) => [BigInt(number), timestamp])));
    advanceHead(models, { number: BigInt(chain.head.blockNumber), timestamp: BigInt(chain.head.timestamp) });
    return models;
  });
}

function argText(value: unknown): ArgText {
  if (Array.isArray(value)) return value.map((entry) => String(entry));
  if (typeof value === "bigint") return String(value);
  if (typeof value === "string" && /^0x[0-9a-fA-F]{40}$/.test(value)) return value.toLowerCase();
  return value as string | boolean;
}

/** An argument as the decoder gives it: whole numbers as bigints. */
function argValue(text: ArgText, type: string): unknown {
  const whole = /^u?int[0-9]*(\[\])?$/.test(type);
  if (!whole) return text;
  return Array.isArray(text) ? text.map((entry) => BigInt(entry)) : BigInt(text as string);
}

/** The snapshot index (fixtures/snapshots/index.json): each request taken and the file holding its answer. */
export interface SnapshotIndex {
  baseUrl: string;
  perPage: number;
  /** Each chain's head block when the snapshots were taken (snapshots exported before it was recorded have none). */
  heads?: { chainId: number; blockNumber: number; timestamp: number }[];
  responses: { method: string; url: string; status: number; file: string }[];
}

/** Reads one snapshot file (a path under the snapshot directory) as parsed JSON. */
export type SnapshotReader = (file: string) => unknown;

/** Where the snapshots come from: a reader, or the files themselves by path under the snapshot directory. */
export type SnapshotFiles = SnapshotReader | Record<string, unknown>;

/**
 * The world file among the snapshot files (`nft-sim fixtures export` writes it beside them). Files given by path, e.g.
 * what Vite's `import.meta.glob("…/snapshots/**\/*.json", { eager: true, import: "default" })` gives, are matched by
 * their part after `snapshots/`.
 */
export function worldOf(files: SnapshotFiles): WorldFile {
  if (typeof files === "function") return files(WORLD_FILE) as WorldFile;
  const found = Object.entries(files).find(
    ([path]) => path.replace(/^.*?snapshots\//, "").replace(/^\.?\//, "") === WORLD_FILE,
  );
  if (!found)
    throw new Error(
      `no ${WORLD_FILE} among the ${Object.keys(files).length} snapshot files given: export them again with ` +
        "`nft-sim fixtures export`, which writes it",
    );
  return found[1] as WorldFile;
}
