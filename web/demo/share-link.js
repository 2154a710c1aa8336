// Panel values in the URL, so a link reproduces what someone was looking at: ?scene=curtain&substeps=20&...
// Only values that differ from the scene's defaults are written; unknown or malformed ones are ignored on read.

/** The panel values named in the URL, parsed to the type of their default. */
export function readUrlParams(url, defaults) {
  const values = {};
  for (const [key, fallback] of Object.entries(defaults)) {
    const raw = url.get(key);
    if (raw === null) continue;
    if (typeof fallback === 'number') {
      const n = Number(raw);
      if (Number.isFinite(n)) values[key] = n;
    } else if (typeof fallback === 'boolean') {
      values[key] = raw === 'true';
    } else {
      values[key] = raw;
    }
  }
  return values;
}

/** A link to this page, this scene and these panel values. */
export function shareLink(sceneName, params, defaults) {
  const url = new URL(location.href);
  url.search = '';
  url.searchParams.set('scene', sceneName);
  for (const [key, value] of Object.entries(params)) {
    if (key in defaults && value !== defaults[key]) url.searchParams.set(key, String(value));
  }
  return url.href;
}
