import { describe, expect, it } from "vitest";
import { Accounts, apiKeyAccount } from "../../src/core/accounts.ts";
import { addressOf, keyFor } from "../../src/core/keys.ts";

describe("apiKeyAccount", () => {
  it("gives a key made through the control API a wallet whose key derives from its name alone", () => {
    const guild = apiKeyAccount("guild", "key-1");
    expect(guild).toEqual({
      apiKey: "key-1",
      name: "guild",
      walletKey: keyFor("api-key/guild"),
      wallet: addressOf(keyFor("api-key/guild")),
    });
    expect(apiKeyAccount("guild", "key-2").wallet).toBe(guild.wallet);
    expect(apiKeyAccount("other", "key-1").wallet).not.toBe(guild.wallet);
  });
});

describe("Accounts", () => {
  const studio = apiKeyAccount("studio", "studio-key");
  const arcade = apiKeyAccount("arcade", "arcade-key");

  it("finds an account by its API key or its name", () => {
    const accounts = new Accounts([studio, arcade]);
    expect(accounts.byApiKey("arcade-key")).toBe(arcade);
    expect(accounts.byName("studio")).toBe(studio);
    expect(accounts.byApiKey("nope")).toBeUndefined();
    expect(accounts.byName("nope")).toBeUndefined();
    expect(accounts.list()).toEqual([studio, arcade]);
  });

  it("comes back to a snapshot: keys added since are gone", () => {
    const accounts = new Accounts([studio]);
    const snapshot = accounts.snapshot();
    const guild = apiKeyAccount("guild", "guild-key");
    accounts.add(guild);
    expect(accounts.byApiKey("guild-key")).toBe(guild);
    accounts.restore(snapshot);
    expect(accounts.byApiKey("guild-key")).toBeUndefined();
    expect(accounts.list()).toEqual([studio]);
    // The snapshot is not the live list: an add after it leaves it as it was.
    accounts.add(guild);
    expect(snapshot).toEqual([studio]);
  });
});
