import type { Static, TSchema } from "@sinclair/typebox";
import type { ApiAccount } from "../core/config.ts";
import type { ReadModels, ReadSource } from "../indexer/models.ts";
import type { ImageFormat } from "../schemas/image.ts";
import type { MintResponse } from "../schemas/item.ts";
import type { Operation } from "../schemas/operations.ts";
import type { PlannedMint } from "../services/mint-plan.ts";

type PartOf<Op, Key extends string> = Op extends { [K in Key]: infer S extends TSchema } ? Static<S> : undefined;

/** A request as its operation's schemas made it: typed, defaults filled in. */
export interface Checked<Op extends Operation> {
  params: PartOf<Op, "params">;
  query: PartOf<Op, "query">;
  body: PartOf<Op, "body">;
}

/** A request as a transport parsed it: all the pipeline reads of it. */
export interface PipelineRequest {
  method: string;
  /** The path as sent (still percent-encoded). */
  path: string;
  /** Path and query as sent: what a read's answer is kept by. */
  url: string;
  /** The query as the transport parsed it: a repeated parameter is an array. */
  query: Record<string, unknown>;
  /** The Content-Type header as sent ("" if none). */
  contentType: string;
  /** A request header as sent (undefined if absent). */
  header(name: string): string | undefined;
  /** The body as the transport's parser read it (JSON, or a form's fields). */
  body?: unknown;
  /** The first of `types` the body's media type is, false if none, null if there is no body (Koa's `ctx.is`). */
  is(types: string[]): string | false | null;
  /** Who sent it (an address): key guessing is slowed down per client. */
  client: string;
  /** Sets a header of the answer, kept when the request is refused after (a 429's retry-after). */
  setHeader(name: string, value: string): void;
}

/** What the pipeline answers a request it serves: its refusals are thrown as the catalog's errors. */
export interface Answer {
  status: 200;
  /** The Content-Type header. */
  type: string;
  body: Uint8Array;
}

/** A picture of a seed, drawn: its bytes, their media type when not the operation's, the tag to revalidate it by. */
export interface Drawn {
  bytes: Uint8Array;
  type?: string;
  etag?: string;
}

/** What the handlers reach: where reads come from, who the API keys are, how a mint is made, how a picture is drawn. */
export interface PipelineDeps {
  /** The simulator's chains, or the MSW handlers' world. */
  chains: ReadSource;
  accounts: { byApiKey(apiKey: string): ApiAccount | undefined };
  /** Makes a checked mint happen: a chain transaction answered once indexed, or (MSW) the logs it would emit folded. */
  send(account: ApiAccount, mint: PlannedMint): Promise<MintResponse>;
  draw(seed: string, format: ImageFormat, size: number): Drawn;
}

type Request<Op extends Operation> = Omit<Checked<Op>, "body">;

/** A read: its answer depends on nothing but its request and the read models it comes from. */
export interface ReadHandler<Op extends Operation> {
  kind: "read";
  /**
   * Brings the read models the answer depends on up to date (every one it looked at, found or not) and answers them
   * with how to make the answer from them as they are (which may throw, a 404).
   */
  read(request: Request<Op>): Promise<{ from: readonly ReadModels[]; answer(): Static<Op["response"]> }>;
}

/** A write: who calls is admitted once the path and query passed, before the body is checked. */
export interface WriteHandler<Op extends Operation, Admitted> {
  kind: "write";
  admit(request: PipelineRequest, checked: Request<Op>): Admitted;
  /** The body as its schema should see it, when the parsed body is not that. */
  bodyOf?(request: PipelineRequest): unknown;
  answer(request: Checked<Op>, admitted: Admitted): Promise<Static<Op["response"]>>;
}

/** Bytes of the operation's media type (an image), sent as they are. */
export interface MediaHandler<Op extends Operation> {
  kind: "media";
  answer(request: Request<Op>, sent: PipelineRequest): Drawn;
}

export type Handler<Op extends Operation> = ReadHandler<Op> | WriteHandler<Op, unknown> | MediaHandler<Op>;
