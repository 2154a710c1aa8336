// The Worker script of tests/js/node/worker-hosted.test.js: WIND_SCENE served beside a World.
import { serveWorld } from '../../../web/lib/worker.js';
import { WIND_SCENE } from './wind-scene.js';

serveWorld(WIND_SCENE);
