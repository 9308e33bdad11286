import { formatTransaction, keccak256, serializeTransaction, type Hex, type RpcTransaction } from "viem";

interface Requester {
  request(args: { method: string; params: unknown[] }): Promise<unknown>;
}

/**
 * The signed bytes of a transaction waiting in the chain's pool, rebuilt from what the chain tells
 * of it: `{ raw }` when they hash to `hash` (sent again, they are the same transaction), else `{}`.
 */
export async function pendingRaw(provider: Requester, hash: Hex): Promise<{ raw?: Hex }> {
  const found = (await provider.request({
    method: "eth_getTransactionByHash",
    params: [hash],
  })) as RpcTransaction | null;
  if (!found || found.blockNumber) return {};
  const {
    r,
    s,
    v,
    yParity,
    input,
    blockHash: _b,
    blockNumber: _n,
    transactionIndex: _i,
    hash: _h,
    from: _f,
    typeHex: _t,
    ...fields
  } = formatTransaction(found) as ReturnType<typeof formatTransaction> & { yParity?: number };
  const raw = serializeTransaction(
    { ...fields, data: input } as never,
    { r, s, ...(yParity !== undefined ? { yParity } : { v }) } as never,
  );
  return keccak256(raw) === hash ? { raw } : {};
}
