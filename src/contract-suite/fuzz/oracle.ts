import { describeErrors, dottedPath } from "../../schemas/ajv.ts";
import { ErrorBody } from "../../schemas/error.ts";
import { documentedStatuses, type Operation } from "../../schemas/operations.ts";
import { responseValidator } from "../schemas.ts";

/** What came back for one generated request, or why nothing did. */
export type FuzzAnswer = { status: number; text: string; json: unknown; ms: number } | { failed: string; ms: number };

/**
 * What is wrong with an answer, whatever was asked: no answer or a late one, a 5xx, a status
 * the operation does not document (its own errors, or the server's refusals every operation may
 * meet), a body that is not JSON or not what its status's schema says.
 */
export function problemsOf(operation: Operation, answer: FuzzAnswer, timeBoundMs: number): string[] {
  if ("failed" in answer) return [`no answer: ${answer.failed}`];
  const problems: string[] = [];
  if (answer.ms > timeBoundMs) problems.push(`answered after ${Math.round(answer.ms)} ms (bound ${timeBoundMs} ms)`);
  if (answer.status >= 500) problems.push(`answered ${answer.status}: a server error`);
  const documented = documentedStatuses(operation);
  if (!documented.includes(answer.status))
    problems.push(
      `answered ${answer.status}, which ${operation.operationId} does not document (${documented.join(", ")})`,
    );
  if (answer.json === undefined) return [...problems, `the body is not JSON: ${answer.text.slice(0, 120)}`];
  const validate = responseValidator(answer.status === 200 ? operation.response : ErrorBody);
  if (!validate(answer.json)) {
    const schema = answer.status === 200 ? "its response schema" : "the error body";
    problems.push(
      ...describeErrors(validate.errors, { path: dottedPath("body") }).map((line) => `${line} (${schema})`),
    );
  }
  return problems;
}
