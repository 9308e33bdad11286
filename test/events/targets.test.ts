import { describe, expect, it } from "vitest";
import { ApiError, ERRORS } from "../../src/core/errors.ts";
import { isLoopbackAddress, WebhookTargets } from "../../src/events/targets.ts";

/** The one line a refused URL is refused with (it must be refused with WEBHOOK_URL_REFUSED). */
async function refusal(targets: WebhookTargets, url: string): Promise<string> {
  const thrown = await targets.check(url).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown, url).toBeInstanceOf(ApiError);
  expect((thrown as ApiError).descriptor).toBe(ERRORS.WEBHOOK_URL_REFUSED);
  return (thrown as ApiError).errors[0]!;
}

describe("isLoopbackAddress", () => {
  it("takes 127.0.0.0/8, ::1 and 127.x written as IPv4-mapped IPv6, and nothing else", () => {
    for (const address of ["127.0.0.1", "127.255.3.4", "::1", "::ffff:127.0.0.1", "::FFFF:127.9.9.9"])
      expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ["128.0.0.1", "10.0.0.1", "0.0.0.0", "::", "::ffff:10.0.0.1", "fe80::1", "localhost", ""])
      expect(isLoopbackAddress(address), address).toBe(false);
  });
});

describe("WebhookTargets", () => {
  it("lets http(s) to loopback through, by address or by a name that resolves only there", async () => {
    const targets = new WebhookTargets();
    for (const url of ["http://127.0.0.1:9000/hook", "https://[::1]/hook", "http://localhost:9000/hook"])
      expect((await targets.check(url)).href).toBe(new URL(url).href);
  });

  it("refuses what is not a URL, not http(s), or an address off loopback, naming why and how to allow it", async () => {
    const targets = new WebhookTargets();
    expect(await refusal(targets, "not a url")).toBe(
      "url 'not a url': not a URL; webhooks go to loopback unless --webhook-hosts allows the host",
    );
    expect(await refusal(targets, "ftp://127.0.0.1/hook")).toContain("ftp: is not http(s)");
    expect(await refusal(targets, "http://10.0.0.1/hook")).toContain("10.0.0.1 is not a loopback address");
    expect(await refusal(targets, "http://[::ffff:10.0.0.1]/hook")).toContain("is not a loopback address");
  });

  it("lets a host --webhook-hosts names through unresolved, any host with *, in any case", async () => {
    const named = new WebhookTargets(["Hooks.Example"]);
    expect((await named.check("https://hooks.example/in")).host).toBe("hooks.example");
    expect(await refusal(named, "http://10.0.0.1/hook")).toContain("not a loopback address");
    expect((await new WebhookTargets(["*"]).check("http://10.0.0.1/hook")).host).toBe("10.0.0.1");
  });

  it("refuses the simulator's own API port on loopback, and only it", async () => {
    const targets = new WebhookTargets();
    targets.servesOn(3000);
    expect(await refusal(targets, "http://127.0.0.1:3000/_sim/reset")).toContain("it is the simulator itself");
    expect(await refusal(targets, "http://localhost:3000/_sim/reset")).toContain("it is the simulator itself");
    expect((await targets.check("http://127.0.0.1:3001/hook")).port).toBe("3001");
  });

  it("resolves a delivery's host again only for a name it did not allow as such", () => {
    const targets = new WebhookTargets(["hooks.example"]);
    expect(targets.lookupFor(new URL("http://127.0.0.1/hook"))).toBeUndefined();
    expect(targets.lookupFor(new URL("http://hooks.example/hook"))).toBeUndefined();
    const lookup = targets.lookupFor(new URL("http://localhost/hook"))!;
    return new Promise<void>((resolve, reject) =>
      lookup("localhost", {}, (error, address) => {
        if (error) return reject(error);
        expect(isLoopbackAddress(address as string)).toBe(true);
        resolve();
      }),
    );
  });
});
