/** Levenshtein's distance between two names, case-insensitive. */
export function editDistance(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[y.length]!;
}

/**
 * The known name nearest to `name` (`sortOrder` → `sortDir`), when one is near enough to be what was meant: at most
 * half its letters changed, and nearer than any other; undefined otherwise.
 */
export function nearestName(name: string, known: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  let tied = false;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (best === undefined || distance < best.distance) [best, tied] = [{ name: candidate, distance }, false];
    else if (distance === best.distance) tied = true;
  }
  if (!best || tied || best.name === name) return undefined;
  return best.distance <= Math.max(1, Math.floor(Math.max(name.length, best.name.length) / 2)) ? best.name : undefined;
}
