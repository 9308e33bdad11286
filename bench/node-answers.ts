// What differs between the default world's answers on anvil and in process: every collection of
// chain 56 and the first page (100) of every item's history, compared as JSON, with and without
// transaction hashes. `node bench/node-answers.ts` impersonates the world's wallets on anvil;
// `--keys` signs with the world's own (derived) keys instead, funded on anvil first.
import { parseArgs } from "node:util";
import { addressOf, deployerKey, keyFor } from "../src/core/keys.ts";
import { loadScenarioFile } from "../src/scenario/load.ts";
import { DEFAULT_WORLD_FILE, defaultWorld, SNAPSHOT_BASE_URL } from "../src/scenario/worlds.ts";
import { startTestSimulator } from "../test/harness.ts";
import { chainAnswers } from "../test/chain/node-suite.ts";
import { startAnvil } from "../test/chain/nodes.ts";
import { rpc } from "../test/rpc.ts";

const { values } = parseArgs({ options: { keys: { type: "boolean", default: false } } });
const { scenario } = loadScenarioFile(DEFAULT_WORLD_FILE);
const keys = new Map(
  scenario.accounts.map((account) => [account.name, keyFor(account.keyLabel ?? `account/${account.name}`)]),
);
const world = () => defaultWorld({ baseUrl: SNAPSHOT_BASE_URL, ...(values.keys ? { keys } : {}) });
const anvil = await startAnvil({ chainId: 56, timestamp: Math.floor(world().genesisTime!.getTime() / 1000) });
if (values.keys)
  for (const key of [deployerKey(56), ...keys.values()])
    await rpc(anvil.url, "anvil_setBalance", [addressOf(key), "0xd3c21bcecceda1000000"]);
const onNode = await startTestSimulator(world(), {
  nodeUrls: [anvil.url],
  ...(values.keys ? { givenKeys: { deployer: deployerKey(56), accounts: keys } } : {}),
});
const inProcess = await startTestSimulator(world());
const node = JSON.stringify(await chainAnswers(onNode, 56, { keepHashes: true }));
const local = JSON.stringify(await chainAnswers(inProcess, 56, { keepHashes: true }));
const hashes = (text: string) => new Set(text.match(/0x[0-9a-f]{64}/g));
const [nodeHashes, localHashes] = [hashes(node), hashes(local)];
const mask = (text: string) => text.replace(/0x[0-9a-f]{64}/g, "<tx>");
console.log(
  `${values.keys ? "signed with --keys" : "impersonated"}: ${node.length} vs ${local.length} bytes of answers; identical: ${node === local}; ` +
    `identical with transaction hashes masked: ${mask(node) === mask(local)}; transaction hashes ${nodeHashes.size} vs ${localHashes.size}, shared ${[...nodeHashes].filter((hash) => localHashes.has(hash)).length}`,
);
await Promise.all([onNode.close(), inProcess.close()]);
await anvil.stop("SIGKILL");
