/**
 * The simulator will not run on this node as asked (it cannot set block times for a timed world,
 * the wallets are unfunded, the contracts file holds another world, …). The CLI prints the
 * message alone and exits 1: it is the set-up, not the simulator, that needs changing.
 */
export class NodeRefusal extends Error {
  override name = "NodeRefusal";
}

/**
 * A control action a node the simulator did not start cannot do (the API answers 409 CONFLICT): it lacks a dev method,
 * or no longer holds what it needs.
 */
export class NodeCannot extends Error {
  readonly chainId: number;
  readonly action: string;
  readonly detail: string;
  constructor(chainId: number, action: string, detail: string) {
    super(`Chain ${chainId} cannot ${action}`);
    this.name = "NodeCannot";
    this.chainId = chainId;
    this.action = action;
    this.detail = detail;
  }
}
