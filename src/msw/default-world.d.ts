// The module scripts/build.ts writes into dist/msw at build: the default world's snapshot files
// the MSW handlers read, by path under fixtures/snapshots. It exists only in the built package.
declare const files: Record<string, unknown>;
export default files;
