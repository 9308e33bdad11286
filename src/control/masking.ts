// What the request log must never show in full: API keys and tokens, wherever a request or an
// answer carries them (a query, a JSON or form body, a control call naming keys as `owner`).

/** A secret as the log shows it: its first 4 characters (of a longer one), enough to tell keys apart. */
export function masked(secret: string, encode: (shown: string) => string = (shown) => shown): string {
  return secret.length > 8 ? `${encode([...secret].slice(0, 4).join(""))}…` : "…";
}

// A field or parameter whose name ends so holds a secret: apiKey, walletKey, adminToken, secret, password.
const SECRET_NAME = "[A-Za-z0-9_-]*(?:key|token|secret|password)";
const IN_JSON = new RegExp(`("${SECRET_NAME}"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)(")`, "gi");
const IN_FORM = new RegExp(`(^|&)(${SECRET_NAME}=)([^&]*)`, "gi");

/**
 * The text with every secret in it masked: by the name of its field or parameter, and every known API key wherever it
 * stands.
 */
export function maskSecrets(text: string, knownKeys: Iterable<string>): string {
  let out = text
    .replace(IN_JSON, (_, open: string, value: string, close: string) => `${open}${maskedJson(value)}${close}`)
    .replace(
      IN_FORM,
      (_, start: string, name: string, value: string) => `${start}${name}${masked(decode(value), encodeURIComponent)}`,
    );
  for (const key of knownKeys) if (key.length > 0 && out.includes(key)) out = out.split(key).join(masked(key));
  return out;
}

/** A JSON string's content masked, still valid inside its quotes. */
function maskedJson(value: string): string {
  try {
    return JSON.stringify(masked(JSON.parse(`"${value}"`) as string)).slice(1, -1);
  } catch {
    return masked(value);
  }
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return value;
  }
}
