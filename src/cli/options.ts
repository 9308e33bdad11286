import { parseArgs } from "node:util";
import { defaultCacheDir, SHIPPED_WORLDS_DIR } from "../world-cache/world-cache.ts";
import { readGivenKeys } from "../chain/node/keys-file.ts";
import { DEFAULT_OPTIONS, type SimulatorOptions } from "../core/config.ts";
import type { WorldOptions } from "../scenario/worlds.ts";
import { isLoopbackHost } from "../access/policy.ts";
import { filledOption, httpUrlOption, integerOption, usageError, texts, switches, HELP } from "./command-line.ts";

const PORT_MAX = 65_535;

export const USAGE = `Usage: npm run simulate -- [options]

  --host <host>        interface to listen on         (env HOST, default ${DEFAULT_OPTIONS.host})
  --port <port>        API port                       (env PORT, default ${DEFAULT_OPTIONS.port})
  --chains <ids>       comma-separated chain ids      (env CHAINS, default ${DEFAULT_OPTIONS.chains.map((c) => c.chainId).join(",")})
  --rpc-port <port>    JSON-RPC port of the first chain; the next chains use the ports after it
                                                      (env RPC_PORT, default ${DEFAULT_OPTIONS.chains[0]!.rpcPort})
  --no-rpc             do not serve the chains as JSON-RPC
  --rpc-host <host>    interface the JSON-RPC ports listen on (env RPC_HOST, default ${DEFAULT_OPTIONS.rpcHost});
                       off loopback every call needs --admin-token (no start without one)
  --allowed-hosts <h>  comma-separated Host names the JSON-RPC ports answer, and the API takes writes
                       and /_sim calls under, besides loopback names (and IP addresses, for the API);
                       where the token is required, any Host is answered
                                                      (env ALLOWED_HOSTS)
  --rpc-cors <origins> more browser origins the JSON-RPC ports answer, comma-separated ('*' for any port,
                       e.g. http://localhost:*; '*' alone for every origin)
                                                      (env RPC_CORS; the loopback origins always)
  --cors <origins>     more browser origins that may mint (or use any other POST, or /_sim) on the API;
                       reads are open to every origin   (env CORS; the loopback origins always)
  --webhook-hosts <h>  comma-separated hosts webhooks (POST /_sim/webhooks) may be sent to besides loopback;
                       '*' for any host. Off by default: the simulator would otherwise send requests
                       into whatever network it runs in      (env WEBHOOK_HOSTS)
  --admin-token <t>    bearer token for the JSON-RPC ports off loopback, and for the control API
                       (/_sim: on without a token only on loopback; with one, it needs it); not empty
                                                      (env ADMIN_TOKEN)
  --rpc-url <url>      a node the simulator did not start (anvil, a Hardhat node), repeatable; its chain id
                       is read from it and replaces the in-process chain of that id; the core contracts
                       are deployed there and its logs indexed     (env RPC_URLS, comma-separated)
  --poll-interval <ms> how often blocks mined by others on those nodes are looked for
                                                      (env POLL_INTERVAL, default ${DEFAULT_OPTIONS.pollIntervalMs})
  --contracts <file>   the contracts deployed on those nodes, per chain id: written once the world is in,
                       and attached to (nothing redeployed or replayed) on the next start   (env CONTRACTS_FILE)
  --keys <file>        private keys for those nodes: { "deployer": "0x…", "accounts": { "<name>": "0x…" } };
                       transactions are signed here, nothing impersonated or funded; never printed;
                       a list of keys for an account ["0x…", …] is a pool that signs its API key's mints
                                                      (env KEYS_FILE, or the JSON itself in SIM_KEYS)
  --state <dir>        keep a journal of every acknowledged change in <dir> and replay it on the next
                       start with the same world (env STATE_DIR); POST /_sim/reset clears it
  --fixture <file>     scenario replayed at start     (env FIXTURE, default fixtures/default-world.json;
                                                      'demo': fixtures/demo-world.json,
                                                      'contract-suite': fixtures/contract-suite-world.json,
                                                      'none': an empty world)
  --fork <url> --collection <address> [--collection …]
                       import live collections (npm run import) and serve them as the world; a read key
                       from IMPORT_API_KEY
  --watch              reload the world when its scenario file changes (a reset to the edited world, on
                       the same ports); a scenario with an error keeps the running world and says where
  --wall-clock         the world's "now" is the wall clock, not the scenario's fixed time
  --cache <dir>        folder of the world cache: a world replayed once is answered from there on the
                       next start (reads at once; writes wait until the chains have replayed it)
                                                      (env CACHE_DIR, default node_modules/.cache/nft-service-simulator)
  --no-cache           replay the world before answering, and cache nothing (the cache is not used
                       with --state, --wall-clock or --rpc-url either)
  --mint-timeout <s>   seconds a mint waits for its block before answering 504 MINT_PENDING
                                                      (env MINT_TIMEOUT, default ${DEFAULT_OPTIONS.mintTimeoutMs / 1000})
  --shutdown-timeout <s> on SIGTERM/SIGINT, seconds requests in flight may take to finish
                       before every connection is cut; a second signal stops at once
                                                      (env SHUTDOWN_TIMEOUT, default ${DEFAULT_OPTIONS.shutdownTimeoutMs / 1000})
  --public-url <url>   base URL written into collection uris
                                                      (env PUBLIC_URL, default http://<host>:<port>)
  -h, --help           show this help`;

/** Every flag `simulate` takes (its --help lists each: test/cli/simulate.test.ts checks). */
export const SIMULATE_FLAGS = {
  ...texts("host port chains rpc-port rpc-host allowed-hosts rpc-cors cors webhook-hosts admin-token fixture cache"),
  ...texts("mint-timeout shutdown-timeout public-url state poll-interval contracts keys"),
  ...switches("no-rpc wall-clock watch no-cache"),
  "rpc-url": { type: "string", multiple: true },
  ...HELP,
} as const;

/** Reads flags, then environment variables, then defaults. */
export function readOptions(
  argv: string[],
  env: NodeJS.ProcessEnv,
): SimulatorOptions & { help: boolean; watch: boolean } & WorldOptions {
  const { values } = parseArgs({
    args: argv,
    options: SIMULATE_FLAGS,
    strict: true,
  });
  const chainIds = (values.chains ?? env.CHAINS ?? DEFAULT_OPTIONS.chains.map((c) => c.chainId).join(","))
    .split(",")
    .map((id) => integerOption("--chains", id.trim(), 1, Number.MAX_SAFE_INTEGER));
  if (new Set(chainIds).size !== chainIds.length) throw usageError("--chains lists a chain twice");
  const givenKeys = readGivenKeys(values.keys ?? (env.KEYS_FILE || undefined), env);
  const contractsFile = filledOption(values.contracts ?? (env.CONTRACTS_FILE || undefined), "--contracts: give a file");
  const nodeUrls = (values["rpc-url"] ?? list(env.RPC_URLS)).map((url) => {
    if (!/^https?:\/\/[^\s/]+/.test(url)) throw usageError(`--rpc-url: '${url}' is not an http(s) URL`);
    return url;
  });
  if (contractsFile !== undefined && nodeUrls.length === 0)
    throw usageError(
      "--contracts (or CONTRACTS_FILE) records contracts on nodes given by --rpc-url, and there is none",
    );
  // An empty token would be "on" yet match no request (an empty ADMIN_TOKEN is unset, as an empty variable is in a shell).
  const adminToken = filledOption(
    values["admin-token"] ?? (env.ADMIN_TOKEN || undefined),
    "--admin-token (or ADMIN_TOKEN) is empty: give a token, or leave it unset",
  );
  const rpcHost = values["rpc-host"] ?? env.RPC_HOST ?? DEFAULT_OPTIONS.rpcHost;
  if (!values["no-rpc"] && !isLoopbackHost(rpcHost) && adminToken === undefined) {
    throw usageError(
      `--rpc-host ${rpcHost}: anyone there could send transactions as the developer wallets; set --admin-token (or ` +
        `ADMIN_TOKEN), or --no-rpc`,
    );
  }
  const state = values.state ?? (env.STATE_DIR || undefined);
  const fixture = values.fixture ?? (env.FIXTURE || undefined);
  if (values.watch && (fixture === "none" || state !== undefined || nodeUrls.length > 0))
    throw usageError(
      "--watch reloads a scenario file onto the simulator's own chains: not with --fixture none, --state or --rpc-url",
    );
  // A whole number from its flag, else its environment variable, else its default.
  const whole = (flag: keyof typeof values, given: string | undefined, fallback: number, min: number, max: number) =>
    integerOption(`--${flag}`, (values[flag] as string | undefined) ?? given ?? String(fallback), min, max);
  const rpcPort = whole("rpc-port", env.RPC_PORT, DEFAULT_OPTIONS.chains[0]!.rpcPort, 0, PORT_MAX);
  return {
    ...DEFAULT_OPTIONS,
    host: values.host ?? env.HOST ?? DEFAULT_OPTIONS.host,
    port: whole("port", env.PORT, DEFAULT_OPTIONS.port, 0, PORT_MAX),
    chains: chainIds.map((chainId, i) => ({ chainId, rpcPort: rpcPort === 0 ? 0 : rpcPort + i })),
    serveRpc: !values["no-rpc"],
    rpcHost,
    rpcAllowedHosts: list(values["allowed-hosts"] ?? env.ALLOWED_HOSTS).map((host) => host.toLowerCase()),
    rpcCors: list(values["rpc-cors"] ?? env.RPC_CORS),
    apiCors: list(values.cors ?? env.CORS),
    webhookHosts: list(values["webhook-hosts"] ?? env.WEBHOOK_HOSTS).map((host) => host.toLowerCase()),
    ...(adminToken !== undefined ? { adminToken } : {}),
    ...(state === undefined ? {} : { stateDir: filledOption(state, "--state: give a directory") }),
    ...(env.STATE_CHECKPOINT_BYTES
      ? { checkpointEveryBytes: integerOption("STATE_CHECKPOINT_BYTES", env.STATE_CHECKPOINT_BYTES, 1, 2 ** 40) }
      : {}),
    ...cacheDir(values, env),
    nodeUrls,
    pollIntervalMs: whole("poll-interval", env.POLL_INTERVAL, DEFAULT_OPTIONS.pollIntervalMs, 50, 3_600_000),
    ...(givenKeys ? { givenKeys } : {}),
    ...(contractsFile !== undefined ? { contractsFile } : {}),
    mintTimeoutMs: 1000 * whole("mint-timeout", env.MINT_TIMEOUT, DEFAULT_OPTIONS.mintTimeoutMs / 1000, 1, 3600),
    shutdownTimeoutMs:
      1000 * whole("shutdown-timeout", env.SHUTDOWN_TIMEOUT, DEFAULT_OPTIONS.shutdownTimeoutMs / 1000, 0, 3600),
    help: values.help,
    watch: values.watch,
    fixture,
    wallClock: values["wall-clock"],
    publicUrl: httpUrlOption("--public-url", values["public-url"] ?? env.PUBLIC_URL),
    chainsGiven: values.chains !== undefined || env.CHAINS !== undefined,
    ...(givenKeys ? { keys: givenKeys.accounts } : {}),
  };
}

/**
 * The world cache is on unless --no-cache; a world whose "now" is the wall clock is never the same twice, so it is not
 * cached. The default cache also reads the worlds the package ships; a folder given is the whole cache.
 */
function cacheDir(values: { cache?: string; "no-cache"?: boolean; "wall-clock"?: boolean }, env: NodeJS.ProcessEnv) {
  if (values["no-cache"] && values.cache !== undefined) throw usageError("--cache and --no-cache: give one");
  if (values["no-cache"] || values["wall-clock"]) return {};
  const dir = filledOption(values.cache ?? (env.CACHE_DIR || undefined), "--cache: give a directory");
  return dir === undefined ? { cacheDir: defaultCacheDir(), shippedWorldsDir: SHIPPED_WORLDS_DIR } : { cacheDir: dir };
}

function list(text: string | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}
