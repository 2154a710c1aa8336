// The valid name a misspelt one was most likely meant to be, for "did you mean" hints.

/** Optimal string alignment distance: edits, with a swap of two neighbours (`centre` / `center`) as one edit. */
function editDistance(a, b) {
  const rows = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) { rows[0].push(j); continue; }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i].push(d);
    }
  }
  return rows[a.length][b.length];
}

/**
 * The candidate closest to `name` (case ignored), or undefined when none is close enough to be a slip of the keyboard
 * (at most a third of the name's letters, and at least one, differ): a far-off guess would mislead more than help.
 */
export function nearestName(name, candidates) {
  const wanted = String(name).toLowerCase();
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  let best, bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(wanted, candidate.toLowerCase());
    if (d < bestDistance) { best = candidate; bestDistance = d; }
  }
  return bestDistance <= limit ? best : undefined;
}
