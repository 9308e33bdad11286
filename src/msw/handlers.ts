import { http, HttpResponse, type HttpHandler } from "msw";
import { DEFAULT_IMAGE_SIZE, IMAGE_SEED_PATTERN } from "../schemas/image.ts";
import { answer } from "./answers.ts";
import { worldFromSnapshots, type SnapshotReader } from "./data.ts";

/** Where the snapshots come from: a reader, or the files themselves by path under the snapshot directory. */
export type SnapshotFiles = SnapshotReader | Record<string, unknown>;

export interface HandlerOptions {
  /** Only requests to this origin are answered (e.g. "http://localhost:3000"); default any origin. */
  baseUrl?: string;
}

/**
 * MSW handlers answering the API's four /api/v2 operations from a snapshotted world, as the
 * simulator serving that world would: same status, same body bytes (compact JSON, as Koa
 * writes it), same error bodies; and the images its answers name, as snapshotted. Other paths
 * (and images the snapshots do not hold) are left alone.
 */
export function handlersFrom(
  files: SnapshotFiles,
  { baseUrl }: HandlerOptions = {},
  drawSvg?: (seed: string, size: number) => string,
): HttpHandler[] {
  const world = worldFromSnapshots(readerOf(files));
  const origin = baseUrl ? baseUrl.replace(/\/+$/, "") : "*";
  const respond = async ({ request }: { request: Request }) => {
    if (request.method === "OPTIONS") return undefined;
    const url = new URL(request.url);
    const answered = await answer(world, {
      method: request.method,
      path: url.pathname,
      search: url.search,
      contentType: request.headers.get("content-type"),
      body: () => request.text(),
    });
    if (!answered) return undefined;
    return new HttpResponse(JSON.stringify(answered.body), {
      status: answered.status,
      headers: { "content-type": "application/json; charset=utf-8" },
    });
  };
  const image = ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    const bytes = world.images.get(url.pathname + url.search);
    if (bytes) {
      const type = url.pathname.endsWith(".svg") ? "image/svg+xml" : "image/png";
      return new HttpResponse(bytes, { status: 200, headers: { "content-type": type } });
    }
    // Where the snapshots hold no bytes (a browser bundle leaves them out), the same picture as SVG.
    const drawn = drawSvg && drawableImage(url);
    return drawn
      ? HttpResponse.text(drawSvg(drawn.seed, drawn.size), { headers: { "content-type": "image/svg+xml" } })
      : undefined;
  };
  return [
    http.all(`${origin}/api/v2/*`, respond),
    http.get(`${origin}/metadata/*`, respond),
    http.get(`${origin}/images/*`, image),
  ];
}

/** The seed and size of an image request the simulator would answer, or undefined. */
function drawableImage(url: URL): { seed: string; size: number } | undefined {
  const found = /^\/images\/([^/]+)\.(png|svg)$/.exec(url.pathname);
  const size = Number(url.searchParams.get("size") ?? DEFAULT_IMAGE_SIZE);
  if (!found || !new RegExp(IMAGE_SEED_PATTERN).test(found[1]!) || !Number.isInteger(size) || size < 16 || size > 1024)
    return undefined;
  return { seed: found[1]!, size };
}

/**
 * A reader over files given by path, e.g. what Vite's
 * `import.meta.glob("…/fixtures/snapshots/**\/*.json", { eager: true, import: "default" })` gives:
 * each key is matched by its part after `snapshots/`.
 */
export function readerOf(files: SnapshotFiles): SnapshotReader {
  if (typeof files === "function") return files;
  const byPath = new Map(
    Object.entries(files).map(([path, content]) => [
      path.replace(/^.*?snapshots\//, "").replace(/^\.?\//, ""),
      content,
    ]),
  );
  return (file) => {
    if (!byPath.has(file)) throw new Error(`no snapshot file ${file} among the ${byPath.size} given`);
    return byPath.get(file);
  };
}
