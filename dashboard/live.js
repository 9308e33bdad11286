// The dashboard follows the simulator: GET /_sim/events (Server-Sent Events), read with fetch so
// it carries the dashboard's header (the request log leaves the dashboard's own calls out), parsed
// by eventsource-parser, resumed with Last-Event-ID when the connection drops.
import { createParser } from "/dashboard/vendor/parse.js";
import { $, OWN } from "./lib.js";

/** Calls `heard(type, data)` for every event pushed; says in the header whether the stream is open. */
export async function follow(heard) {
  let lastEventId;
  const state = (text, name) => {
    $("#live").textContent = text;
    $("#live").dataset.state = name;
  };
  for (;;) {
    try {
      const response = await fetch("/_sim/events", {
        headers: { ...OWN, accept: "text/event-stream", ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
      });
      if (!response.ok) throw new Error(`${response.status}`);
      state("live", "live");
      const parser = createParser({
        onEvent: (message) => {
          if (message.id) lastEventId = message.id;
          heard(message.event, JSON.parse(message.data));
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch {
      // The simulator stopped, or the control API is off: try again in a moment.
    }
    state("reconnecting…", "down");
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}
