// The request log masks the secrets it keeps (request-log.ts); this path stays for src/proxy/, which imports it.
export { masked, maskSecrets } from "./request-log.ts";
