// The bounds of pushed events: options (src/core/config.ts) name them without importing the feed.

export interface StreamOptions {
  /** How often a comment line shows a Server-Sent Events connection is alive (proxies and clients drop silent ones). */
  heartbeatMs: number;
  /** A client that lets this much wait unread is cut off (it resumes with Last-Event-ID). */
  maxUnreadBytes: number;
}

export interface DeliveryOptions {
  /** Attempts per message, the first included. */
  attempts: number;
  /** The wait before the second attempt; it doubles before each next one. */
  backoffMs: number;
  maxBackoffMs: number;
  /** How long one attempt waits for the receiver's answer. */
  timeoutMs: number;
  /** Messages waiting per webhook (the one being delivered included); the oldest waiting one is dropped past it. */
  queueLimit: number;
  /** Deliveries kept in each webhook's log. */
  logLimit: number;
}

/** What tests and benches may shorten or lengthen. */
export interface EventTuning {
  /** Entries kept for `Last-Event-ID`. */
  buffer?: number;
  stream?: Partial<StreamOptions>;
  delivery?: Partial<DeliveryOptions>;
}
