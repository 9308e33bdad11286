import { describe, expect, it } from "vitest";
import { Secrets } from "../../src/proxy/secrets.ts";

const KEY = "studio-secret-key-1";
const TOKEN = "bearer-token-value-2";

describe("Secrets", () => {
  it("notes every apiKey of a query, the API key header and Authorization (with and without its scheme)", () => {
    const secrets = new Secrets();
    secrets.noteRequest(new URL(`http://up.example/api/v2/item/new?apiKey=${KEY}&apiKey=second-key-3`), {
      altura_api_key: "header-key-44",
      authorization: `Bearer ${TOKEN}`,
    });
    expect(new Set(secrets.known)).toEqual(
      new Set([KEY, "second-key-3", "header-key-44", `Bearer ${TOKEN}`, TOKEN, "Bearer%20" + TOKEN]),
    );
  });

  it("keeps a secret's URL-encoded form too, and notes nothing for a request without one or a blank one", () => {
    const secrets = new Secrets();
    secrets.noteRequest(new URL("http://up.example/api/v2/collection"), {});
    secrets.noteRequest(new URL("http://up.example/api/v2/collection?apiKey=%20%20"), { authorization: "  " });
    expect([...secrets.known]).toEqual([]);
    secrets.noteRequest(new URL("http://up.example/?apiKey=a%2Fb%20c%3Dd"), {});
    expect(new Set(secrets.known)).toEqual(new Set(["a/b c=d", "a%2Fb%20c%3Dd"]));
  });

  it("masks each secret it saw wherever it stands, and a secret by the name it goes under, seen or not", () => {
    const secrets = new Secrets();
    secrets.noteRequest(new URL(`http://up.example/?apiKey=${KEY}`), { authorization: TOKEN });
    const masked = secrets.mask(`GET /x?apiKey=${KEY} said ${KEY} and ${TOKEN}; {"walletKey":"never-seen-secret"}`);
    expect(masked).not.toContain(KEY);
    expect(masked).not.toContain(TOKEN);
    expect(masked).not.toContain("never-seen-secret");
    expect(masked).toContain("stud…");
    expect(secrets.mask("nothing secret here")).toBe("nothing secret here");
  });
});
