import fc from "fast-check";
import { OPERATIONS, type Operation } from "../../schemas/operations.ts";
import type { Target } from "../target.ts";
import { paths } from "../target.ts";
import { nonConformance } from "./conformance.ts";
import { problemsOf, type FuzzAnswer } from "./oracle.ts";
import { curlOf, requestsFor, urlOf, type FuzzContext, type FuzzRequest } from "./requests.ts";
import { learnWorld, nextTokenId, worldDigest } from "./world.ts";

export interface FuzzOptions {
  /** Requests in all, shared between the operations. */
  runs: number;
  seed: number;
  timeBoundMs: number;
}

/** The first failure fast-check found for one operation, shrunk to the smallest request that still fails. */
export interface FuzzFinding {
  operation: string;
  problems: string[];
  curl: string;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  /** How many answers had each status. */
  statuses: Record<number, number>;
  serverErrors: number;
  findings: FuzzFinding[];
}

class Violation extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.join("; "));
    this.problems = problems;
  }
}

async function send(baseUrl: string, request: FuzzRequest, timeBoundMs: number): Promise<FuzzAnswer> {
  const started = performance.now();
  try {
    const response = await fetch(urlOf(baseUrl, request), { method: request.method, headers: request.headers, body: request.body, signal: AbortSignal.timeout(timeBoundMs * 2) });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, text, json, ms: performance.now() - started };
  } catch (error) {
    return { failed: String((error as Error).cause ?? (error as Error).message), ms: performance.now() - started };
  }
}

/**
 * Fuzzes every operation of the route table with requests generated from its schemas (seeded,
 * shrinking), checking each answer (`problemsOf`), that a refused mint left the chain as it was,
 * that an accepted one is readable at once, and that the reads changed nothing.
 */
export async function runFuzz(target: Target, options: FuzzOptions): Promise<FuzzReport> {
  const base = target.baseUrl.replace(/\/+$/, "");
  const known = await learnWorld(base, target);
  const context: FuzzContext = { ...known, ...(target.allowWrites && target.apiKey ? { apiKey: target.apiKey } : {}) };
  const mintOn = target.mintCollection ?? target.collection ?? known.addresses[0];
  let next = target.allowWrites && mintOn ? await nextTokenId(base, mintOn) : undefined;
  const report: FuzzReport = { seed: options.seed, requests: 0, statuses: {}, serverErrors: 0, findings: [] };
  const before = await worldDigest(base);
  const perOperation = Math.max(1, Math.ceil(options.runs / OPERATIONS.length));

  const judge = async (operation: Operation, request: FuzzRequest): Promise<string[]> => {
    const answer = await send(base, request, options.timeBoundMs);
    report.requests += 1;
    if ("status" in answer) report.statuses[answer.status] = (report.statuses[answer.status] ?? 0) + 1;
    if ("status" in answer && answer.status >= 500) report.serverErrors += 1;
    const problems = problemsOf(operation, answer, options.timeBoundMs);
    const reasons = nonConformance(operation, request, request.params);
    if ("status" in answer && answer.status < 300 && reasons.length > 0) problems.push(`accepted (${answer.status}) a request its schemas refuse: ${reasons[0]}`);
    if (operation.method !== "post" || !("status" in answer) || !mintOn || next === undefined) return problems;
    if (answer.status === 200) {
      const minted = answer.json as { txHash: string; tokenIds: number[]; collectionAddress: string };
      if (minted.collectionAddress === mintOn.toLowerCase()) next = Math.max(next, ...minted.tokenIds) + 1;
      problems.push(...(await readBack(base, minted)));
    } else {
      const probe = await send(base, { operation: "probe", method: "GET", path: paths.itemEvents(mintOn, next), params: [], query: [], headers: {} }, options.timeBoundMs);
      if (!("status" in probe) || probe.status !== 404) problems.push(`refused with ${answer.status}, yet token ${next} of ${mintOn} now exists`);
    }
    return problems;
  };

  for (const [i, operation] of OPERATIONS.entries()) {
    const property = fc.asyncProperty(requestsFor(operation, context), async (request) => {
      const problems = await judge(operation, request);
      if (problems.length > 0) throw new Violation(problems);
    });
    const details = await fc.check(property, { numRuns: perOperation, seed: options.seed + i });
    if (details.failed && details.counterexample) {
      const [request] = details.counterexample;
      const problems = details.errorInstance instanceof Violation ? details.errorInstance.problems : [String(details.errorInstance)];
      report.findings.push({ operation: operation.operationId, problems, curl: curlOf(base, request, target.apiKey) });
    }
  }

  if (!target.allowWrites && JSON.stringify(await worldDigest(base)) !== JSON.stringify(before)) {
    report.findings.push({ operation: "(all)", problems: ["the collections changed although no write was allowed: a refused request changed the world"], curl: "" });
  }
  return report;
}

/** Stateful: an accepted mint is in its item's history at once, and its collection answers. */
async function readBack(base: string, minted: { txHash: string; tokenIds: number[]; collectionAddress: string }): Promise<string[]> {
  const history = await fetch(`${base}${paths.itemEvents(minted.collectionAddress, minted.tokenIds[0]!)}?perPage=100`).then((r) => r.json() as Promise<{ events?: { transactionHash: string }[] }>);
  const problems: string[] = [];
  if (!history.events?.some((event) => event.transactionHash === minted.txHash)) problems.push(`minted ${minted.txHash}, but the history of token ${minted.tokenIds[0]} does not show it`);
  if ((await fetch(`${base}${paths.collection(minted.collectionAddress)}`)).status !== 200) problems.push(`minted in ${minted.collectionAddress}, which then does not answer 200`);
  return problems;
}
