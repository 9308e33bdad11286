// The module scripts/build.ts writes into dist/msw at build: the default world's file the MSW
// handlers fold (fixtures/snapshots/world.json), by path. It exists only in the built package.
declare const files: Record<string, unknown>;
export default files;
