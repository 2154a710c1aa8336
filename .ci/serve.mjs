// `npm start`: the Vite dev server for web/ with the COOP/COEP headers (from vite.config.js), and the API reference
// that TypeDoc wrote to build/docs under /docs/. Prints the URL.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { createServer } from 'vite';

const docsRoot = new URL('../build/docs/', import.meta.url).pathname;
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml',
  '.json': 'application/json', '.woff2': 'font/woff2', '.png': 'image/png' };

/** Serves build/docs at /docs/ (a static site: TypeDoc's HTML, scripts and styles). */
const apiReference = {
  name: 'pbd-api-reference',
  configureServer(server) {
    server.middlewares.use('/docs', (req, res, next) => {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let file = normalize(join(docsRoot, path));
      if (!file.startsWith(docsRoot.replace(/\/$/, ''))) return next();
      if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
      if (!existsSync(file)) return next();
      res.setHeader('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream');
      createReadStream(file).pipe(res);
    });
  },
};

const port = Number(process.env.PORT ?? 5173);
const server = await createServer({ configFile: new URL('../vite.config.js', import.meta.url).pathname,
  plugins: [apiReference], server: { port, strictPort: false, host: process.env.HOST ?? 'localhost' } });
await server.listen();
server.printUrls();
console.log('Serving with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp ' +
  '(threads enabled); the API reference at /docs/. Stop with Ctrl+C.');
