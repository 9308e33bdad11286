import { SERVED_OPERATIONS, OPERATIONS, type Operation, type OperationId } from "../schemas/operations.ts";
import { AnswerBytes } from "./answer-bytes.ts";
import { checkRequest, checksOf, queryWithKey } from "./checks.ts";
import { collectionRead } from "./collection.ts";
import { collectionsRead } from "./collections.ts";
import type { Answer, Handler, PipelineDeps, PipelineRequest } from "./handlers.ts";
import { imagePngMedia, imageSvgMedia } from "./images.ts";
import { itemEventsRead } from "./item-events.ts";
import { metadataRead } from "./metadata.ts";
import { mintWrite } from "./mint.ts";
import { Router, type Allowed, type Routed } from "./router.ts";

export type { Answer, Drawn, PipelineDeps, PipelineRequest } from "./handlers.ts";
export type { Allowed, Route, Routed } from "./router.ts";

/** The handler of each operation of the route table (one missing does not compile). */
const HANDLERS = {
  mintItem: mintWrite,
  getItemEvents: itemEventsRead,
  getCollection: collectionRead,
  listCollections: collectionsRead,
  getItemMetadata: metadataRead,
  getImagePng: imagePngMedia,
  getImageSvg: imageSvgMedia,
} satisfies Record<OperationId, (deps: PipelineDeps) => { kind: Handler<Operation>["kind"] }>;

/** Where the API's own paths are: any other path there that no operation serves is 404. */
export const API_SPACE = commonPrefix(OPERATIONS.map((operation) => operation.path));

const JSON_TYPE = "application/json; charset=utf-8";
const utf8 = new TextEncoder();

/**
 * Every answer of the API, whatever carries it (the Koa server, the MSW handlers): a request routed by the route table
 * (`route`), then `answer`: its credentials, path parameters and query checked against the operation's schemas, the
 * handler's read or write, and the answer checked against the response schema. A read's answer is checked and
 * serialized once per state of the read models it comes from and kept as bytes (`AnswerBytes`) until they change.
 * Refusals are thrown as the catalog's errors, for the transport's error exit to write.
 */
export class Pipeline {
  readonly router = new Router(SERVED_OPERATIONS, API_SPACE);
  readonly #handlers: Map<Operation, Handler<Operation>>;
  readonly #answers = new AnswerBytes();

  constructor(deps: PipelineDeps) {
    this.#handlers = new Map(
      SERVED_OPERATIONS.map((operation) => [operation, HANDLERS[operation.operationId](deps) as Handler<Operation>]),
    );
  }

  /** The request's operation (or, OPTIONS, the methods its path takes); undefined for a path that is not the API's. */
  route(method: string, path: string): Routed | Allowed | undefined {
    return this.router.route(method, path);
  }

  async answer({ operation, params }: Routed, request: PipelineRequest): Promise<Answer> {
    const handler = this.#handlers.get(operation)!;
    const query = queryWithKey(operation, request.query, request.header);
    switch (handler.kind) {
      case "read": {
        // The bytes kept for this URL were made for the same request: it is not checked again.
        const kept = this.#answers.kept(request.url);
        const checked =
          (kept?.request as ReturnType<typeof checkRequest>) ?? checkRequest(operation, { params, query });
        const { from, answer } = await handler.read(checked);
        const bytes = this.#answers.bytes(request.url, kept, checked, from, () =>
          utf8.encode(JSON.stringify(checksOf(operation).response(answer()))),
        );
        return { status: 200, type: JSON_TYPE, body: bytes };
      }
      case "write": {
        const checked = checkRequest(operation, { params, query });
        const admitted = handler.admit(request, checked);
        const body = checksOf(operation).body?.(handler.bodyOf ? handler.bodyOf(request) : request.body);
        const answer = await handler.answer({ ...checked, body } as never, admitted);
        return {
          status: 200,
          type: JSON_TYPE,
          body: utf8.encode(JSON.stringify(checksOf(operation).response(answer))),
        };
      }
      case "media": {
        const drawn = handler.answer(checkRequest(operation, { params, query }), request);
        return { status: 200, type: drawn.type ?? operation.media!, body: drawn.bytes };
      }
    }
  }
}

function commonPrefix(paths: string[]): string {
  let prefix = paths[0] ?? "";
  for (const path of paths) while (!path.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix.slice(0, prefix.lastIndexOf("/") + 1);
}
