import Koa, { type Context } from "koa";
import Router from "@koa/router";
import { apiError, ERRORS } from "../core/errors.ts";
import { loopbackPolicy } from "../access/policy.ts";
import { RequestLog } from "../control/request-log.ts";
import { EventFeed } from "../events/feed.ts";
import { eventStream } from "../events/stream.ts";
import { errorExit } from "../http/error-exit.ts";
import { guardAccess } from "../http/access.ts";
import { handle } from "../routes/handle.ts";
import { getRequest, listRequests } from "../schemas/control-operations.ts";
import { streamEvents } from "../schemas/control-operations.ts";
import { Findings, type Finding } from "./findings.ts";
import { forward, type Outgoing } from "./forward.ts";
import { judge } from "./judge.ts";
import { Recording } from "./record.ts";
import { Secrets } from "./secrets.ts";

export interface ProxyOptions {
  /** The one service every request is passed on to. */
  upstream: URL;
  /** Answer 502 with the violations instead of a breaking answer. */
  strict: boolean;
  /** How long the upstream may take to answer. */
  timeoutMs?: number;
  /** Largest request body passed on. */
  bodyLimitBytes?: number;
  /** `--record`: note the collections the traffic reads, for a world written at exit. */
  record?: boolean;
  /** Where each violation is told, one line each (stderr). */
  tell(line: string): void;
}

export interface Proxy {
  app: Koa;
  findings: Findings;
  requests: RequestLog;
  feed: EventFeed;
  /** With `record`: the collections read, and the answers kept for the import. */
  recording?: Recording;
}

/** The SSE `event:` of a finding on `/_sim/events`. */
export const VIOLATION_EVENT = "violation";

/**
 * A validating proxy: every request passed on to the upstream as sent (but for what belongs to the connection), its
 * answer sent back as it came, and checked by the contract suite's checks of its operation. Each violation is told on
 * `tell`, kept in the request log (`GET /_sim/requests`, a `violations` field), pushed on `GET /_sim/events` and kept
 * for the JUnit report; `strict` answers 502 with them instead. Its `/_sim` and the requests it passes on that change
 * state are guarded by the access policy of a loopback dev tool; every secret the traffic carried is masked.
 */
export function createProxy(options: ProxyOptions): Proxy {
  const secrets = new Secrets();
  const requests = new RequestLog(() => secrets.known);
  const feed = new EventFeed();
  const findings = new Findings();
  const recording = options.record ? new Recording(options.upstream, secrets) : undefined;
  const app = new Koa();
  const router = new Router();
  router.get(
    listRequests.path,
    handle(listRequests, { answer: async ({ query }) => ({ requests: requests.last(query) }) }),
  );
  router.get(
    getRequest.path,
    handle(getRequest, {
      answer: async ({ params }) => {
        const found = requests.detail(params.id);
        if (!found) throw apiError(ERRORS.NOT_FOUND, { what: `Request ${params.id} in the log` });
        return found;
      },
    }),
  );
  router.get(streamEvents.path, eventStream(feed));

  const told = (ctx: Context, durationMs: number) => {
    const requestId = requests.record(ctx, durationMs);
    const finding = (ctx.state as { finding?: Omit<Finding, "requestId"> }).finding;
    if (!finding) return requestId;
    const masked: Finding = {
      ...finding,
      requestId: requestId ?? 0,
      request: secrets.mask(finding.request),
      violations: finding.violations.map((line) => secrets.mask(line)),
    };
    findings.add(finding.operation, masked.violations.length > 0 ? masked : undefined);
    if (masked.violations.length === 0) return requestId;
    for (const line of masked.violations)
      options.tell(`violation: #${masked.requestId} ${masked.request} answered ${masked.status}: ${line}`);
    feed.publish([
      { type: VIOLATION_EVENT, id: `${VIOLATION_EVENT}-${masked.requestId}`, data: JSON.stringify(masked) },
    ]);
    return requestId;
  };

  app.use(errorExit({ record: told }, (message) => options.tell(secrets.mask(message))));
  app.use(guardAccess(loopbackPolicy()));
  app.use(router.routes());
  app.use(async (ctx, next) => {
    if (ctx.path === "/_sim" || ctx.path.startsWith("/_sim/")) return next();
    await passOn(ctx, options, secrets, recording);
  });
  return { app, findings, requests, feed, ...(recording ? { recording } : {}) };
}

async function passOn(
  ctx: Context,
  options: ProxyOptions,
  secrets: Secrets,
  recording: Recording | undefined,
): Promise<void> {
  const body = await readBody(ctx, options.bodyLimitBytes ?? 10 * 1024 * 1024);
  const outgoing: Outgoing = { method: ctx.method, url: ctx.url, headers: ctx.req.headers, body };
  secrets.noteRequest(new URL(ctx.url, "http://proxy"), ctx.req.headers);
  if (body.length > 0) (ctx.request as { rawBody?: string }).rawBody = body.toString("utf8");
  const answer = await forward(options.upstream, outgoing, options.timeoutMs ?? 30_000);
  recording?.note(outgoing, answer);
  const judged = judge(outgoing, answer);
  if (judged) {
    const request = `${ctx.method} ${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ""}`;
    ctx.state.finding = { operation: judged.operation, request, status: answer.status, violations: judged.problems };
    ctx.state.violations = judged.problems;
    if (options.strict && judged.problems.length > 0)
      throw apiError(
        ERRORS.UPSTREAM_VIOLATION,
        { status: answer.status, first: secrets.mask(judged.problems[0]!) },
        { errors: judged.problems.map((line) => secrets.mask(line)) },
      );
  }
  ctx.status = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
  ctx.body = answer.body;
}

function readBody(ctx: Context, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    ctx.req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) reject(apiError(ERRORS.BODY_TOO_LARGE));
      else chunks.push(chunk);
    });
    ctx.req.on("end", () => resolve(Buffer.concat(chunks)));
    ctx.req.on("error", reject);
  });
}
