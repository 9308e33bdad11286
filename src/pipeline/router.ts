// The router is the pipeline's first step (pipeline.ts); this path stays for src/proxy/, which imports it.
export { Router } from "./pipeline.ts";
export type { Allowed, Route, Routed } from "./pipeline.ts";
