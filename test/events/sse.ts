import { createParser, type EventSourceMessage } from "eventsource-parser";

/** A Server-Sent Events stream read as a browser would: every message with its `event:`, `id:` and raw `data:`. */
export interface OpenStream {
  status: number;
  messages: EventSourceMessage[];
  /** Comment lines (heartbeats). */
  comments: string[];
  /** Resolves once `count` messages passing `test` have come; rejects after `timeoutMs` with what came. */
  waitFor(
    test: (message: EventSourceMessage) => boolean,
    count?: number,
    timeoutMs?: number,
  ): Promise<EventSourceMessage[]>;
  /** Resolves once a comment passing `test` has come (a heartbeat stamped late enough marks the end of what came before it). */
  waitForComment(test: (comment: string) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

export async function openStream(url: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: "text/event-stream", ...headers },
    signal: controller.signal,
  });
  const messages: EventSourceMessage[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const parser = createParser({
    onEvent: (message) => {
      messages.push(message);
      waiters.forEach((wake) => wake());
    },
    onComment: (comment) => {
      comments.push(comment);
      waiters.forEach((wake) => wake());
    },
  });
  if (response.ok) {
    void (async () => {
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          parser.feed(value);
        }
      } catch {
        // closed
      }
    })();
  }
  return {
    status: response.status,
    messages,
    comments,
    waitFor(test, count = 1, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.filter(test);
          if (found.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `${messages.filter(test).length} of ${count} messages came within ${timeoutMs} ms; got ${JSON.stringify(messages.map(({ event, id }) => `${event} ${id}`))}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    waitForComment(test, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!comments.some(test)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such comment came within ${timeoutMs} ms; got ${JSON.stringify(comments)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}
