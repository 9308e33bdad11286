/**
 * JSON-RPC methods that never change a chain; any other call from outside may even rewrite its history (evm_revert).
 */
export const READ_ONLY = new Set([
  "eth_blockNumber",
  "eth_call",
  "eth_chainId",
  "eth_estimateGas",
  "eth_feeHistory",
  "eth_gasPrice",
  "eth_getBalance",
  "eth_getBlockByHash",
  "eth_getBlockByNumber",
  "eth_getCode",
  "eth_getLogs",
  "eth_getStorageAt",
  "eth_getTransactionByHash",
  "eth_getTransactionCount",
  "eth_getTransactionReceipt",
  "eth_maxPriorityFeePerGas",
  "eth_accounts",
  "eth_syncing",
  "net_version",
  "web3_clientVersion",
]);
