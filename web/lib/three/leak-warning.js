/**
 * Development aid: an adapter object that holds wasm memory (an Embedding) and is garbage-collected without
 * dispose() leaks that memory, because wasm memory is not garbage collected. A FinalizationRegistry notices and warns.
 */
let enabled = true;
const registry = typeof FinalizationRegistry === 'undefined' ? null : new FinalizationRegistry((label) => {
  if (enabled) console.warn(`pbd-wasm/three: ${label} was garbage-collected without dispose(); its wasm memory leaked`);
});

/** Turns the warnings on or off (on by default; they cost nothing until an object is collected). */
export function setLeakWarnings(on) { enabled = !!on; }

/** Warns if `owner` is collected before forgetLeakWatch(owner). */
export function watchForLeaks(owner, label) { registry?.register(owner, label, owner); }

export function forgetLeakWatch(owner) { registry?.unregister(owner); }
