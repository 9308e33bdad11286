/** A name as the last part of a URL: lower-case words joined by '-' ("Neon Drift #2" → "neon-drift-2"). */
export function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "collection"
  );
}
