/**
 * The simulator will not run on this node as asked (it cannot set block times for a timed world,
 * the wallets are unfunded, the contracts file holds another world, …). The CLI prints the
 * message alone and exits 1: it is the set-up, not the simulator, that needs changing.
 */
export class NodeRefusal extends Error {
  override name = "NodeRefusal";
}
