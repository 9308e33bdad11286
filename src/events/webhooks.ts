import { randomBytes } from "node:crypto";
import { Webhook as Signer } from "standardwebhooks";
import { conflict } from "../core/errors.ts";
import type { CreatedWebhook, Webhook, WebhookBody, WebhookDetail } from "../schemas/events.ts";
import type { DeliveryOptions } from "../core/event-tuning.ts";
import { DELIVERY_DEFAULTS, DeliveryQueue, postOnce, receiverAgent } from "./delivery.ts";
import { type FeedEntry, type EventFeed, eventFilter } from "./feed.ts";
import type { WebhookTargets } from "./targets.ts";

/** At most this many webhooks; one more is refused with 409. */
export const WEBHOOK_LIMIT = 100;

interface Registered {
  view: Omit<Webhook, "stats">;
  queue: DeliveryQueue;
  close: () => void;
}

/**
 * The webhooks (`/_sim/webhooks`): each listens to the feed with its filters and delivers what
 * passes through its own bounded queue, signed with its secret by the `standardwebhooks`
 * library (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`).
 */
export class Webhooks {
  readonly #feed: EventFeed;
  readonly #targets: WebhookTargets;
  readonly #options: DeliveryOptions;
  readonly #hooks = new Map<string, Registered>();
  #count = 0;

  constructor(feed: EventFeed, targets: WebhookTargets, options: Partial<DeliveryOptions> = {}) {
    this.#feed = feed;
    this.#targets = targets;
    this.#options = { ...DELIVERY_DEFAULTS, ...options };
  }

  async add(body: WebhookBody): Promise<CreatedWebhook> {
    if (this.#hooks.size >= WEBHOOK_LIMIT)
      throw conflict(
        `${WEBHOOK_LIMIT} webhooks exist already`,
        "remove one (DELETE /_sim/webhooks/:id) before adding another",
      );
    const url = await this.#targets.check(body.url);
    // As Standard Webhooks writes them: `whsec_` and the base64 of 24 random bytes.
    const secret = body.secret ?? `whsec_${randomBytes(24).toString("base64")}`;
    const signer = new Signer(secret);
    const id = `webhook-${++this.#count}`;
    const agent = receiverAgent(url, this.#targets.lookupFor(url));
    const send = (entry: FeedEntry, messageId: string) => {
      // As Standard Webhooks has it: its type, when it happened, and the event's JSON.
      const payload = `{"type":${JSON.stringify(entry.type)},"timestamp":${JSON.stringify(new Date(entry.at).toISOString())},"data":${entry.data}}`;
      const now = new Date();
      const headers = {
        "user-agent": "nft-service-simulator",
        "webhook-id": messageId,
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": signer.sign(messageId, now, payload),
      };
      return postOnce(url, payload, headers, { agent, timeoutMs: this.#options.timeoutMs });
    };
    const queue = new DeliveryQueue(send, this.#options);
    const filter = eventFilter(body);
    // The body's filters, as the feed reads them (its kinds are unique already).
    const { kinds, ...where } = filter;
    const view = {
      id,
      url: url.href,
      ...where,
      ...(kinds ? { kinds: [...kinds] } : {}),
      createdAt: new Date().toISOString(),
    };
    const stop = this.#feed.listen({ filter, push: (entry) => queue.enqueue(entry), end: () => queue.close() });
    const close = () => (stop(), queue.close(), agent.destroy());
    this.#hooks.set(id, { view, queue, close });
    return { ...view, stats: queue.stats, secret };
  }

  list(): Webhook[] {
    return [...this.#hooks.values()].map(({ view, queue }) => ({ ...view, stats: queue.stats }));
  }

  get(id: string): WebhookDetail | undefined {
    const hook = this.#hooks.get(id);
    return hook && { ...hook.view, stats: hook.queue.stats, deliveries: hook.queue.log() };
  }

  remove(id: string): boolean {
    this.#hooks.get(id)?.close();
    return this.#hooks.delete(id);
  }

  close(): void {
    for (const hook of this.#hooks.values()) hook.close();
  }
}
