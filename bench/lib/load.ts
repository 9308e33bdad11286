import autocannon from "autocannon";

/** One load measurement: requests per second and latency percentiles (ms). */
export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  seconds: number;
}

export interface LoadSpec {
  url: string;
  connections: number;
  seconds: number;
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
}

/**
 * Runs autocannon against one URL. Any non-2xx answer or connection error fails
 * the benchmark: a fast error page must never pass for a fast endpoint.
 */
export async function load(spec: LoadSpec): Promise<Sample> {
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.seconds,
    pipelining: 1,
    method: spec.method ?? "GET",
    body: spec.body,
    headers: spec.headers,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) {
    throw new Error(
      `${spec.method ?? "GET"} ${spec.url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    seconds: result.duration,
  };
}

/** Several rounds of the same measurement summarized: the median of each figure. */
export function summarize(samples: Sample[]): Sample {
  return {
    rps: median(samples.map((s) => s.rps)),
    p50: median(samples.map((s) => s.p50)),
    p99: median(samples.map((s) => s.p99)),
    requests: samples.reduce((sum, s) => sum + s.requests, 0),
    seconds: samples.reduce((sum, s) => sum + s.seconds, 0),
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
