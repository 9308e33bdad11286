// The server's JSON refusals live with the error exit (error-exit.ts); this path stays for src/proxy/, which imports it.
export { jsonHttpServer, type ErrorWriter } from "./error-exit.ts";
