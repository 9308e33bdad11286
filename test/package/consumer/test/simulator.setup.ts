import { startSimulator } from "nft-service-simulator";
import type { TestProject } from "vitest/node";

export default async function setup(project: TestProject) {
  const sim = await startSimulator();
  project.provide("apiUrl", sim.url);
  project.provide("apiKey", sim.accounts[0]!.apiKey);
  return () => sim.close();
}

declare module "vitest" {
  export interface ProvidedContext {
    apiUrl: string;
    apiKey: string;
  }
}
