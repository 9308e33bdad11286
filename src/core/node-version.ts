/** The oldest Node.js the simulator runs on: Hardhat 3, which runs its chains, needs 22. */
export const NODE_MAJOR_NEEDED = 22;

/** One line saying this Node.js is too old, and which it is; undefined when it will do. */
export function nodeTooOld(version: string = process.versions.node): string | undefined {
  const major = Number(version.split(".")[0]);
  if (major >= NODE_MAJOR_NEEDED) return undefined;
  return `nft-service-simulator needs Node.js ${NODE_MAJOR_NEEDED} or later; this is Node.js ${version} (its chains run on Hardhat 3, which needs ${NODE_MAJOR_NEEDED}).`;
}
