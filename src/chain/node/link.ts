import type { NodeCapabilities } from "./capabilities.ts";
import type { BlockRef } from "./contracts-file.ts";
import type { NodeRpc } from "./rpc.ts";
import type { NodeWriter } from "./writer.ts";

/** A node the simulator did not start, as its chain knows it: how to reach it, what it allows, how writes go there. */
export interface NodeLink {
  rpc: NodeRpc;
  capabilities: NodeCapabilities;
  writer: NodeWriter;
  /** Where the core contracts were deployed: the chain must keep this block for the index to mean anything. */
  deployedAt: BlockRef;
  /** The --contracts file: the contracts were attached to from it (recorded by an earlier run), or recorded in it. */
  contractsFile?: { path: string; attached: boolean };
}
