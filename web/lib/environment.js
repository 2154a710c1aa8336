/** Whether the package runs in Node.js (not a browser, nor a bundler's browser build of it). */
export const isNode = typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';
