import fc from "fast-check";
import type { MintResponse } from "../../schemas/item.ts";
import { getItemMetadata, OPERATIONS, type Operation } from "../../schemas/operations.ts";
import { paths, type Target } from "../target.ts";
import { nonConformance } from "./conformance.ts";
import { unexplainedChanges, worldDigest, type OwnMints } from "./digest.ts";
import { answerProblems } from "../answers/answer-checks.ts";
import { semanticProblems, type HistoryLengths } from "./properties.ts";
import { curlOf, requestsFor, send, type FuzzContext, type FuzzRequest } from "./requests.ts";
import { CheckStopped } from "../stopped.ts";
import { readBack } from "./stateful.ts";
import { learnWorld } from "./world.ts";

export interface FuzzOptions {
  /** Requests in all, shared between the operations. */
  runs: number;
  seed: number;
  timeBoundMs: number;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  /** How many answers had each status. */
  statuses: Record<number, number>;
  serverErrors: number;
  /** Mints the target accepted (each then read back). */
  mints: number;
  /** The operations fuzzed (the route table's, the metadata route when the target serves it). */
  operations: string[];
  /** The first failure fast-check found for each operation, shrunk to the smallest request that still fails. */
  findings: { operation: string; problems: string[]; curl: string }[];
}

/**
 * Fuzzes every operation of the route table with requests generated from its schemas and from
 * what the target serves (seeded, shrinking), checking each answer (`answerProblems`), that a 200 to
 * a conforming request pages and orders as documented, that a refused mint left no token behind,
 * that an accepted one reads back (history, collection, metadata), and that the world afterwards
 * differs from before only by the run's own mints.
 */
export async function runFuzz(target: Target, options: FuzzOptions): Promise<FuzzReport> {
  const base = target.baseUrl.replace(/\/+$/, "");
  const known = await learnWorld(base, target);
  const context: FuzzContext = { ...known, ...(target.allowWrites && target.apiKey ? { apiKey: target.apiKey } : {}) };
  const mintOn = known.mint?.collection;
  // learnWorld looks into the collection to mint on first, so it knows the token id a mint takes next.
  let next = mintOn ? known.nextTokenIds.get(mintOn) : undefined;
  const operations: Operation[] = [...OPERATIONS, ...(known.servesMetadata ? [getItemMetadata] : [])];
  const report: FuzzReport = {
    seed: options.seed,
    requests: 0,
    statuses: {},
    serverErrors: 0,
    mints: 0,
    operations: operations.map((op) => op.operationId),
    findings: [],
  };
  const lengths: HistoryLengths = new Map();
  const own: OwnMints = { recipients: new Map(), created: [] };
  const before = await worldDigest(base, known);
  const perOperation = Math.max(1, Math.ceil(options.runs / operations.length));

  const judge = async (operation: Operation, request: FuzzRequest): Promise<string[]> => {
    const answer = await send(base, request, options.timeBoundMs * 2);
    report.requests += 1;
    if ("status" in answer) report.statuses[answer.status] = (report.statuses[answer.status] ?? 0) + 1;
    if ("status" in answer && answer.status >= 500) report.serverErrors += 1;
    if (!("status" in answer)) return [`no answer: ${answer.failed}`];
    const problems = answerProblems(operation, request, answer);
    if (answer.ms > options.timeBoundMs)
      problems.push(`answered after ${Math.round(answer.ms)} ms (bound ${options.timeBoundMs} ms)`);
    const conforms = nonConformance(operation, request).length === 0;
    if (answer.status === 200 && conforms && problems.length === 0)
      problems.push(...(await semanticProblems(base, request, answer.json, lengths)));
    if (operation.method !== "post") return problems;
    if (answer.status === 200 && problems.length === 0) {
      const minted = answer.json as MintResponse;
      report.mints += 1;
      if (next !== undefined && minted.collectionAddress === mintOn) next = Math.max(next, ...minted.tokenIds) + 1;
      problems.push(...(await readBack(base, minted, own, lengths, known.servesMetadata)));
    } else if (answer.status !== 200 && mintOn && next !== undefined) {
      const probe = await fetch(`${base}${paths.itemEvents(mintOn, next)}`);
      if (probe.status !== 404)
        problems.push(`refused with ${answer.status}, yet token ${next} of ${mintOn} now exists`);
    }
    return problems;
  };

  for (const [i, operation] of operations.entries()) {
    const property = fc.asyncProperty(requestsFor(operation, context), async (request) => {
      const problems = await judge(operation, request);
      if (problems.length > 0) throw new CheckStopped(problems.join("; "), { problems });
    });
    const details = await fc.check(property, { numRuns: perOperation, seed: options.seed + i });
    if (details.failed && details.counterexample) {
      const [request] = details.counterexample;
      const problems =
        details.errorInstance instanceof CheckStopped
          ? details.errorInstance.problems
          : [String(details.errorInstance)];
      report.findings.push({ operation: operation.operationId, problems, curl: curlOf(base, request, target.apiKey) });
    }
  }

  const changes = await unexplainedChanges(base, before, await worldDigest(base, known), own);
  if (changes.length > 0) report.findings.push({ operation: "(the world)", problems: changes.slice(0, 10), curl: "" });
  return report;
}
