// `npm start`: the Vite dev server for web/ with the COOP/COEP headers (from vite.config.js). Prints the URL.
import { createServer } from 'vite';

const port = Number(process.env.PORT ?? 5173);
const server = await createServer({ configFile: new URL('../vite.config.js', import.meta.url).pathname,
  server: { port, strictPort: false, host: process.env.HOST ?? 'localhost' } });
await server.listen();
server.printUrls();
console.log('Serving with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp ' +
  '(threads enabled). Stop with Ctrl+C.');
