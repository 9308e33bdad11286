// A typed client for the control API (`/_sim`) of any running simulator:
//
//   const control = controlClient("http://127.0.0.1:3000");
//   const { id } = await control.snapshot();
//   await control.advanceTime(2 * 86_400);
//   await control.revert(id);
import type { Static } from "@sinclair/typebox";
import type * as Control from "../schemas/control.ts";
import type { ErrorBody } from "../schemas/error.ts";
import { ControlError, webhookMethods, type WebhookMethods } from "./events-client.ts";

export { ControlError };

type Body<T extends keyof typeof Control> = Static<(typeof Control)[T]>;

export interface ControlClient extends WebhookMethods {
  time(): Promise<Body<"TimeResponse">>;
  advanceTime(seconds: number, chainId?: number): Promise<Body<"TimeResponse">>;
  snapshot(): Promise<Body<"SnapshotResponse">>;
  revert(id: string): Promise<void>;
  reset(): Promise<void>;
  createApiKey(name: string): Promise<Body<"ApiKeyResponse">>;
  createCollection(
    collection: Partial<Body<"CreateCollectionBody">> &
      Pick<Body<"CreateCollectionBody">, "chainId" | "name" | "owner">,
  ): Promise<Body<"CreatedCollection">>;
  grantMinter(collection: string, apiKey: string, chainId?: number): Promise<Body<"MinterResponse">>;
  revokeMinter(collection: string, apiKey: string, chainId?: number): Promise<Body<"MinterResponse">>;
  addFault(rule: Omit<Body<"FaultBody">, "seed"> & { seed?: number }): Promise<Body<"Fault">>;
  faults(): Promise<Body<"FaultList">["faults"]>;
  removeFault(id: string): Promise<void>;
  clearFaults(): Promise<void>;
  requests(limit?: number): Promise<Body<"RequestLog">["requests"]>;
}

/** A client for the simulator at `url`; `token` is its --admin-token, if it has one. */
export function controlClient(url: string, { token }: { token?: string } = {}): ControlClient {
  const base = `${url.replace(/\/+$/, "")}/_sim`;
  async function send<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    };
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as T | ErrorBody;
    if (!response.ok) throw new ControlError(response.status, answer as ErrorBody);
    return answer as T;
  }
  const key = encodeURIComponent;
  return {
    ...webhookMethods(send, base, token),
    time: () => send("GET", "/time"),
    advanceTime: (seconds, chainId) =>
      send("POST", "/time/advance", { seconds, ...(chainId === undefined ? {} : { chainId }) }),
    snapshot: () => send("POST", "/snapshots"),
    revert: async (id) => void (await send("POST", `/snapshots/${key(id)}/revert`)),
    reset: async () => void (await send("POST", "/reset")),
    createApiKey: (name) => send("POST", "/api-keys", { name }),
    createCollection: (collection) => send("POST", "/collections", collection),
    grantMinter: (collection, apiKey, chainId) =>
      send("POST", `/collections/${collection}/minters`, { apiKey, ...(chainId === undefined ? {} : { chainId }) }),
    revokeMinter: (collection, apiKey, chainId) =>
      send(
        "DELETE",
        `/collections/${collection}/minters/${key(apiKey)}${chainId === undefined ? "" : `?chainId=${chainId}`}`,
      ),
    addFault: (rule) => send("POST", "/faults", rule),
    faults: async () => (await send<Body<"FaultList">>("GET", "/faults")).faults,
    removeFault: async (id) => void (await send("DELETE", `/faults/${key(id)}`)),
    clearFaults: async () => void (await send("DELETE", "/faults")),
    requests: async (limit = 50) => (await send<Body<"RequestLog">>("GET", `/requests?limit=${limit}`)).requests,
  };
}
