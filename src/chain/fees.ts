// Every transaction the simulator sends names its own fee caps, which spares Hardhat an
// eth_feeHistory round trip and gives the same bytes (so the same hash) on every run.
// Blocks here are far from full, so the base fee only falls and stays below the cap.
export const MAX_FEE_PER_GAS = 100n * 10n ** 9n;
export const MAX_PRIORITY_FEE_PER_GAS = 10n ** 9n;
