import type { SimChain } from "../chain/sim-chain.ts";
import { emptyBlocksAhead, NODE_MINES_IN_ALL } from "../chain/height.ts";
import { oneLine, StartError, START_ERRORS } from "../core/errors.ts";
import { actionOf } from "../timeline/actions.ts";
import type { Step } from "./references.ts";

// A chain's steps as the blocks they go in (entries that name one block, an imported world's events of one live block,
// go in it together), and a step that failed there, named by its place in the scenario.

/**
 * The steps in runs that go in one block each: entries that name the same block one after another (in the chain's
 * order) share it; any other step is a run of its own.
 */
export function sameBlockRuns(steps: Step[]): Step[][] {
  const runs: Step[][] = [];
  for (const step of steps) {
    const last = runs.at(-1)?.at(-1);
    const shared =
      step.kind === "action" &&
      last?.kind === "action" &&
      step.action.block !== undefined &&
      step.action.block === last.action.block;
    if (shared) runs.at(-1)!.push(step);
    else runs.push([step]);
  }
  return runs;
}

/**
 * Whether the step names its block and sends something before its own transaction there (a listing's approval, a
 * buyer's coins): alone in its block it still goes as a run does, so that what it sends first goes below the block
 * where blocks are free (last in the block just below, where that is the previous entry's), else in the block with it,
 * and its own transaction in the block it names.
 */
export function sendsFirst(step: Step): boolean {
  return step.kind === "action" && step.action.block !== undefined && actionOf(step.action).setUp !== undefined;
}

/**
 * On a node, which makes each empty block: a chain whose runs name blocks that leave more than NODE_MINES_IN_ALL empty
 * ones between them is refused before any of them is sent.
 */
export async function refuseManyEmptyBlocks(chain: SimChain, runs: Step[][]): Promise<void> {
  const node = chain.node;
  if (!node) return;
  const head = Number(await chain.request("eth_blockNumber"));
  const empty = emptyBlocksAhead(
    head,
    runs.map(([step]) => (step!.kind === "action" ? step!.action.block : undefined)),
  );
  if (empty > NODE_MINES_IN_ALL)
    throw new StartError(
      START_ERRORS.NODE_REFUSED,
      `the node at ${node.rpc.shown} (chain ${chain.chainId}): the world's entries name blocks that leave about ` +
        `${empty} empty blocks between them (from block ${head + 1} on), more than a node is asked to mine for one ` +
        `world (at most ${NODE_MINES_IN_ALL}: it makes each one, each the slower the more blocks it holds); serve the ` +
        `world in process (without --rpc-url)`,
    );
}

/** A step the chain refused while the world was replayed, named by its place in the scenario: the start fails. */
export function replayFailed(step: Step, chainId: number, cause: unknown): StartError {
  const what =
    step.kind === "collection"
      ? `creating collection '${step.collection.id}'`
      : `${step.action.action} at ${step.action.at}`;
  return new StartError(
    START_ERRORS.REPLAY_FAILED,
    `${step.path} (${what}) failed on chain ${chainId}: ${oneLine(cause)}`,
  );
}
