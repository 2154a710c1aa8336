// The Worker script of createWorkerWorld() without a Worker of the caller's: a World with nothing hosted.
import { serveWorld } from './worker-host.js';

serveWorld();
