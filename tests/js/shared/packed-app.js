// The package as a user installs it: `npm pack` of this repository, installed from the tarball with `three` and
// `vite` into a new project, as the e2e tests of the package and of the examples use it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../../../', import.meta.url).pathname;

/** Runs a command in `cwd`, quietly; its stdout. Throws with the command's stderr when it fails. */
export const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000, env: { ...process.env, npm_config_loglevel: 'error',
    npm_config_fund: 'false', npm_config_audit: 'false' } });

/** The version of a dependency this repository's lock file installed. */
const versionOf = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

/**
 * Packs the package into `scratch` and installs the tarball, with this repository's versions of three, vite and
 * Rapier (the npm cache serves them), into `app` (made if missing, with a package.json if it has none).
 */
export function installPackedApp(scratch, app) {
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', scratch], root))[0];
  mkdirSync(app, { recursive: true });
  try {
    readFileSync(join(app, 'package.json'));
  } catch {
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  }
  run('npm', ['install', '--prefer-offline', join(scratch, packed.filename), `three@${versionOf('three')}`,
    `vite@${versionOf('vite')}`, `@dimforge/rapier3d-compat@${versionOf('@dimforge/rapier3d-compat')}`], app);
}
