import { EventFeed, FEED_BUFFER } from "./feed.ts";
import { STREAM_DEFAULTS } from "./stream.ts";
import type { EventTuning, StreamOptions } from "../core/event-tuning.ts";
import { WebhookTargets } from "./targets.ts";
import { Webhooks } from "./webhooks.ts";

/** How events are pushed: the hosts webhooks may reach besides loopback (`--webhook-hosts`), and the bounds. */
export interface EventOptions extends EventTuning {
  webhookHosts: readonly string[];
}

/** Events pushed to whoever listens: the feed, its Server-Sent Events streams, and the webhooks. */
export class PushedEvents {
  readonly feed: EventFeed;
  readonly webhooks: Webhooks;
  /** Where webhooks may go: told the simulator's own API port once it listens (never a webhook's target). */
  readonly targets: WebhookTargets;
  readonly stream: StreamOptions;

  constructor({ webhookHosts, buffer = FEED_BUFFER, stream = {}, delivery = {} }: EventOptions) {
    this.feed = new EventFeed(buffer);
    this.targets = new WebhookTargets(webhookHosts);
    this.webhooks = new Webhooks(this.feed, this.targets, delivery);
    this.stream = { ...STREAM_DEFAULTS, ...stream };
  }

  /** Ends every stream and stops every delivery (the simulator stops). */
  close(): void {
    this.webhooks.close();
    this.feed.close();
  }
}
