// Frame time of every gallery scene in headless Chromium: the demo page served cross-origin isolated (threaded
// build) and, with --single, without the headers (single-threaded build). Per scene:
// - the median solver time per step (ms, measured in the simulation worker around world.step) and its 95th
//   percentile;
// - the steps the worker made per second (60 is real time: 1/60 s steps; a step over its 16.7 ms slows the
//   simulation);
// - the median render-frame interval (ms; headless Chromium renders in software, so this is a lower bound on what a
//   laptop GPU does, not a target);
// - the median main-thread work per frame (ms: the page's animation callback, which refreshes the meshes and normals,
//   issues the rendering and draws the plots; the software rasterizer's own work runs in Chromium's GPU process,
//   outside it).
// Last, the renderer that drew the pages and the pixel ratio (a page drawn in software halves it and does not
// multisample; ?pixelRatio=r in the page's URL sets the ratio).
// Usage: node bench/gallery-bench.mjs [--single] [--threads N] [--seconds 4] [--scenes fold,drape] [--viewport WxH]
//   [--paused]
// --threads: the solver threads of the threaded build (default: the library's, min(cores - 1, 4) in a browser).
// --viewport: the page's size in CSS pixels (default 1024x640); the rasterizer's share of a frame scales with it.
// --paused: the simulation is paused after the warm-up, so the frames show what drawing alone costs on the machine.
import { createServer } from 'vite';
import { chromium } from 'playwright';
import viteConfig, { isolationHeaders } from '../vite.config.js';
import { galleryNames } from './scenes.mjs';

const args = process.argv.slice(2);
const single = args.includes('--single');
const paused = args.includes('--paused');
const option = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
const seconds = Number(option('--seconds')) || 4;
const threads = option('--threads') === undefined ? undefined : Number(option('--threads'));
const sceneNames = option('--scenes')?.split(',') ?? await galleryNames();
const [width, height] = (option('--viewport') ?? '1024x640').split('x').map(Number);
const quantile = (a, q) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[Math.floor(q * s.length)] : NaN;
};
const median = (a) => quantile(a, 0.5);

const server = await createServer({ ...viteConfig, configFile: false, logLevel: 'silent',
  root: new URL('../web', import.meta.url).pathname,
  server: { port: 0, host: '127.0.0.1', headers: single ? {} : isolationHeaders, hmr: false } });
await server.listen();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--enable-unsafe-swiftshader', '--disable-background-networking', '--no-first-run'] });
console.log(`gallery scenes in headless Chromium (${single ? 'single-threaded build' : 'threaded build'}), ` +
  `${width} x ${height}${paused ? ', simulation paused' : ''}, median over ${seconds} s after 60 frames of warm-up`);
console.log('scene          particles  solver ms/step  (p95)  steps/s  render ms/frame  main ms/frame  build');
let drawnBy;
try {
  for (const name of sceneNames) {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.goto(`${server.resolvedUrls.local[0]}?scene=${name}`);
    await page.waitForFunction(() => window.__pbdDemo?.ready && __pbdDemo.frames > 60, null, { timeout: 180_000 });
    if (threads !== undefined && !single) {
      await page.evaluate((n) => __pbdDemo.setThreads(n), threads);
      await page.waitForFunction((n) => __pbdDemo.threads === n, threads, { timeout: 10_000 });
    }
    if (paused) await page.evaluate(() => __pbdDemo.pause(true));
    const before = await page.evaluate(() => ({ frames: __pbdDemo.frames, ms: performance.now() }));
    await page.waitForTimeout(seconds * 1000);
    const r = await page.evaluate(() => ({ ...__pbdDemo.timings, variant: __pbdDemo.variant, threads: __pbdDemo.threads,
      renderer: __pbdDemo.renderer, frames: __pbdDemo.frames, ms: performance.now(),
      particles: __pbdDemo.drawables.reduce((n, d) => n + d.particleCount, 0) }));
    const build = r.variant === 'threaded' ? `threaded (${r.threads} threads)` : r.variant;
    const stepsPerSecond = (1000 * (r.frames - before.frames)) / (r.ms - before.ms);
    const solver = paused ? `${'-'.padStart(21)}  ${'-'.padStart(7)}` // a paused worker does not step
      : `${median(r.solverMs).toFixed(2).padStart(14)}${quantile(r.solverMs, 0.95).toFixed(1).padStart(7)}  ` +
        `${stepsPerSecond.toFixed(0).padStart(7)}`;
    console.log(`${name.padEnd(14)} ${String(r.particles).padStart(9)}  ${solver}  ` +
      `${median(r.frameMs).toFixed(1).padStart(15)}  ${median(r.mainMs).toFixed(2).padStart(13)}  ${build}`);
    await page.close();
    drawnBy = r.renderer;
  }
  if (drawnBy) {
    console.log(`drawn by: ${drawnBy.name}${drawnBy.software ? ' (software)' : ''}, pixel ratio ${drawnBy.pixelRatio}`);
  }
} finally {
  await browser.close();
  await server.close();
}
