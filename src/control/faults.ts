import type { Context, Next } from "koa";
import { ApiError, apiError, descriptorForStatus, ERRORS } from "../core/errors.ts";
import type { Fault, FaultBody, FaultBodyChange } from "../schemas/fault-rule.ts";
import { ANSWER_EDITS, changedAnswer } from "./fault-body.ts";
import { isControlPath } from "../access/policy.ts";
import { pathPattern } from "../core/path-pattern.ts";

interface Rule {
  fault: Fault;
  path: RegExp;
  random: () => number;
  window: { count: number; endsAt: number };
}

/**
 * Fault rules for the API (never the control API): a status with the error body (503 and 429 with Retry-After), a
 * delay, a rate limit answering 429 with Retry-After, a dropped connection, or a body (one given whole, or the route's
 * own answer broken or drifted), for some requests or a seeded share of them. All but a change of the route's answer
 * act before the request is read, so a faulted mint never reaches the chain; a changed answer is the route's, changed
 * on its way out.
 */
export class Faults {
  #rules: Rule[] = [];
  #count = 0;

  add(body: FaultBody): Fault {
    const idle = whyIdle(body);
    if (idle.length > 0) throw apiError(ERRORS.INVALID_REQUEST, { part: "body" }, { errors: idle });
    const fault: Fault = { id: `fault-${++this.#count}`, ...body, applied: 0 };
    this.#rules.push({
      fault,
      path: pathPattern(body.match.path),
      random: seeded(body.seed),
      window: { count: 0, endsAt: 0 },
    });
    return fault;
  }

  list(): Fault[] {
    return this.#rules.map(({ fault }) => fault);
  }

  remove(id: string): boolean {
    const before = this.#rules.length;
    this.#rules = this.#rules.filter(({ fault }) => fault.id !== id);
    return this.#rules.length < before;
  }

  clear(): void {
    this.#rules = [];
  }

  middleware() {
    const faulted = async (ctx: Context, next: Next) => {
      const edits: FaultBodyChange[] = [];
      for (const rule of this.#rules) if (this.#matches(rule, ctx) && (await this.#apply(rule, ctx, edits))) return;
      await next();
      for (const edit of edits) editAnswer(ctx, edit);
    };
    // Without rules, no async step of its own: every request passes here.
    return (ctx: Context, next: Next) =>
      this.#rules.length === 0 || isControlPath(ctx.path) ? next() : faulted(ctx, next);
  }

  #matches({ fault: { match, times, applied }, path }: Rule, ctx: Context): boolean {
    if (times !== undefined && applied >= times) return false;
    if (match.method && match.method !== ctx.method) return false;
    if (match.apiKey !== undefined && ctx.query.apiKey !== match.apiKey) return false;
    return path.test(ctx.path);
  }

  /**
   * Applies the rule's effect if its probability says so; answers whether the request was answered (or dropped) here.
   */
  async #apply(rule: Rule, ctx: Context, edits: FaultBodyChange[]): Promise<boolean> {
    const { fault } = rule;
    if (fault.probability !== undefined && rule.random() >= fault.probability) return false;
    const { effect } = fault;
    const limited = effect.rateLimit ? this.#overLimit(rule, effect.rateLimit) : 0;
    // A rule that only limits the rate acts on the requests over it alone.
    const onlyLimits = !effect.latencyMs && !effect.status && !effect.dropConnection && !effect.body;
    if (effect.rateLimit && limited === 0 && onlyLimits) return false;
    fault.applied += 1;
    if (effect.latencyMs) await new Promise((resolve) => setTimeout(resolve, effect.latencyMs));
    if (limited > 0) {
      ctx.set("retry-after", String(limited));
      const { requests, perSeconds } = effect.rateLimit!;
      const why = `${fault.id}: more than ${requests} requests in ${perSeconds} s; retry in ${limited} s`;
      throw apiError(ERRORS.RATE_LIMITED, {}, { errors: [why] });
    }
    if (effect.dropConnection) {
      ctx.respond = false;
      ctx.req.socket.destroy();
      return true;
    }
    const retryAfter = effect.retryAfter ?? (effect.status === 503 || effect.status === 429 ? 1 : undefined);
    if (effect.status && retryAfter !== undefined) ctx.set("retry-after", String(retryAfter));
    const { body } = effect;
    if (body?.json !== undefined || body?.text !== undefined) {
      ctx.status = effect.status ?? 200;
      ctx.body = Buffer.from(body.text ?? JSON.stringify(body.json));
      ctx.type = body.text === undefined ? "application/json" : (body.contentType ?? "text/plain");
      return true;
    }
    if (effect.status) {
      const errors = [`${fault.id} answers ${effect.status} to ${ctx.method} ${ctx.path}`];
      throw new ApiError(descriptorForStatus(effect.status, "Injected by {id}"), { id: fault.id }, { errors });
    }
    if (body) edits.push(body);
    return false;
  }

  /** Seconds to wait if this request is over the rule's rate limit, else 0. */
  #overLimit(rule: Rule, { requests, perSeconds }: { requests: number; perSeconds: number }): number {
    const now = Date.now();
    if (rule.window.endsAt <= now) rule.window = { count: 0, endsAt: now + perSeconds * 1000 };
    rule.window.count += 1;
    return rule.window.count > requests ? Math.max(1, Math.ceil((rule.window.endsAt - now) / 1000)) : 0;
  }
}

/** The route's answer changed as `edit` says, where it has one. */
function editAnswer(ctx: Context, edit: FaultBodyChange): void {
  const body: unknown = ctx.body;
  if (body == null || typeof (body as { pipe?: unknown }).pipe === "function") return;
  const json = Boolean(ctx.response.is("json"));
  const bytes =
    body instanceof Uint8Array
      ? Buffer.from(body.buffer, body.byteOffset, body.byteLength)
      : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
  const type = ctx.response.get("content-type");
  ctx.body = changedAnswer(bytes, json, edit);
  if (type) ctx.set("content-type", type);
}

/** Why a rule could never change an answer, or says two things at once (empty: it can). */
function whyIdle({ match, effect, probability }: FaultBody): string[] {
  const reasons: string[] = [];
  const { status, latencyMs, rateLimit, dropConnection, body, retryAfter } = effect;
  const givesBody = body?.json !== undefined || body?.text !== undefined;
  const edits = ANSWER_EDITS.filter((edit) => body?.[edit] !== undefined && body[edit] !== false);
  if (status === undefined && !latencyMs && !rateLimit && !dropConnection && !givesBody && edits.length === 0)
    reasons.push(
      "body.effect does nothing: give a status, a latencyMs above 0, a rateLimit, dropConnection: true or a body",
    );
  if (body?.json !== undefined && body.text !== undefined)
    reasons.push("body.effect.body gives both json and text: give one");
  if (givesBody && edits.length > 0)
    reasons.push(
      `body.effect.body gives a body whole and changes the route's answer (${edits.join(", ")}): give one or the other`,
    );
  if (body?.contentType !== undefined && body.text === undefined)
    reasons.push("body.effect.body.contentType is the type of body.text, which is not given");
  if (status !== undefined && status < 400 && !givesBody)
    reasons.push(`body.effect.status ${status} answers nothing but a body: give body.json or body.text`);
  if (status !== undefined && edits.length > 0)
    reasons.push(
      "body.effect.status answers the error body, not the route's answer, which body edits change: give body.json or " +
        "body.text with the status",
    );
  if (retryAfter !== undefined && status === undefined)
    reasons.push("body.effect.retryAfter is sent with a status: give one (503, 429, …)");
  if (dropConnection && body) reasons.push("body.effect.dropConnection answers nothing, so its body is never sent");
  for (const path of [...(body?.drop ?? []), ...Object.keys({ ...body?.rename, ...body?.retype, ...body?.add })])
    if (path.split(".").some((key) => key === ""))
      reasons.push(`body.effect.body path '${path}' has an empty key: write keys with dots between (collection.name)`);
  if (!match.path.startsWith("/"))
    reasons.push(`body.match.path '${match.path}' never matches: a request's path starts with '/'`);
  else if (isControlPath(match.path))
    reasons.push(`body.match.path '${match.path}' never matches: fault rules never act on the control API (/_sim)`);
  if (probability === 0)
    reasons.push("body.probability 0 never applies: give a share above 0, or leave it out for every matching request");
  return reasons;
}

/** mulberry32: a small seeded generator, so a run with the same seed draws the same faults. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
