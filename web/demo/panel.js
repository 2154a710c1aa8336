// The lil-gui panel: scene, solver settings for every world of the scene, pause/step/reset, a share link and a
// screenshot. Every change goes to the simulation worker (its setParams).
import GUI from 'lil-gui';
import { KINDS } from './constraint-params.js';
import { shareLink } from './share-link.js';

const SOLVERS = { 'Gauss-Seidel': 'gauss-seidel', 'Jacobi': 'jacobi', 'coloured Gauss-Seidel (parallel)':
  'coloured-gauss-seidel', 'hierarchical PBD': 'hierarchical', 'Projective Dynamics': 'projective-dynamics',
  'Vertex Block Descent': 'vbd' };

export function createPanel({ params, sceneName, scenes, call, renderer, threads, maxThreads, snapshots }) {
  const defaults = { ...params };
  const values = { ...params, scene: sceneName, paused: false };
  const gui = new GUI({ title: 'Simulation' });
  const update = () => {
    const { scene, paused, ...rest } = values;
    call('setParams', rest);
  };
  const titles = Object.fromEntries(Object.entries(scenes).map(([name, s]) => [s.title, name]));
  gui.add(values, 'scene', titles).onChange((name) => {
    location.search = `?scene=${encodeURIComponent(name)}`;
  });
  gui.add(values, 'method', { 'PBD (stiffness)': 'pbd', 'XPBD (compliance)': 'xpbd' }).onChange(update);
  gui.add(values, 'solver', SOLVERS).onChange(update);
  gui.add(values, 'integrator', { 'implicit Euler': 'implicit-euler', 'BDF2 (second order)': 'bdf2' }).onChange(update);
  gui.add(values, 'selfCollision').name('self-collision').onChange(update);
  gui.add(values, 'substeps', 1, 50, 1).onChange(update);
  gui.add(values, 'iterations', 1, 50, 1).onChange(update);
  gui.add(values, 'stiffness', 0, 1, 0.01).name('stiffness (PBD)').onChange(update);
  gui.add(values, 'compliance', 0, 0.01, 0.00001).name('compliance (XPBD, m/N)').onChange(update);
  addConstraintTypes(gui, values, update);
  gui.add(values, 'damping', 0, 5, 0.01).name('damping (1/s)').onChange(update);
  gui.add(values, 'gravity', -30, 0, 0.01).name('gravity (m/s²)').onChange(update);
  gui.add(values, 'friction', 0, 2, 0.01).name('ground friction').onChange(update);
  gui.add(values, 'staticFriction', -1, 2, 0.01).name('ground static friction (-1: same)').onChange(update);
  gui.add(values, 'restitution', 0, 1, 0.01).name('ground restitution').onChange(update);
  if (maxThreads > 1) {
    if (!values.threads) values.threads = threads;
    gui.add(values, 'threads', 1, maxThreads, 1).name('solver threads').onChange(update);
  }
  gui.add(values, 'contacts').name('draw contacts (last step)').onChange(update);
  gui.add(values, 'paused').onChange((value) => call('pause', value));
  gui.add({ step: () => call('step') }, 'step').name('single step');
  gui.add({ reset: () => call('reset') }, 'reset');
  gui.add({ share: async () => {
    const { scene, paused, ...rest } = values;
    const link = shareLink(sceneName, rest, defaults);
    history.replaceState(null, '', link);
    await navigator.clipboard?.writeText(link).catch(() => {});
  } }, 'share').name('share link (copied, and in the address bar)');
  gui.add({ screenshot: () => {
    const a = document.createElement('a');
    a.href = renderer.domElement.toDataURL('image/png');
    a.download = `pbd-wasm-${sceneName}.png`;
    a.click();
  } }, 'screenshot');
  // Snapshots of every world of the scene (World.saveSnapshot): a .pbdsnap file, and the last one kept in memory.
  const folder = gui.addFolder('Snapshot');
  folder.add(snapshots, 'save').name('save (downloads .pbdsnap)');
  folder.add(snapshots, 'loadLast').name('load the last saved');
  folder.add(snapshots, 'loadFile').name('load a .pbdsnap file…');
  return {
    /** Sets values as if the user had moved the controls. */
    set(changes) {
      Object.assign(values, changes);
      gui.controllersRecursive().forEach((c) => c.updateDisplay());
      update();
    },
  };
}

/**
 * Per constraint type, the kinds this scene has (its params name them, starting at the values it was built with):
 * stiffness (PBD) and compliance (XPBD, in the kind's units; a number box, since useful values span decades). Then the
 * Neo-Hookean material, for scenes with such bodies.
 */
function addConstraintTypes(gui, values, update) {
  const kinds = gui.addFolder('constraint types');
  for (const [prefix, { label, unit }] of Object.entries(KINDS)) {
    if (!(`${prefix}Compliance` in values)) continue;
    kinds.add(values, `${prefix}Stiffness`, 0, 1, 0.01).name(`${label}: stiffness (PBD)`).onChange(update);
    kinds.add(values, `${prefix}Compliance`).min(0).name(`${label}: compliance (XPBD, ${unit})`).onChange(update);
  }
  if (kinds.controllers.length === 0) kinds.destroy();
  if (!('youngsModulus' in values)) return;
  const material = gui.addFolder('material (Neo-Hookean bodies)');
  material.add(values, 'youngsModulus').min(1).name("Young's modulus E (Pa)").onChange(update);
  material.add(values, 'poissonRatio', -0.99, 0.49, 0.01).name("Poisson's ratio ν").onChange(update);
  material.add(values, 'materialStiffness', 0, 1, 0.01).name('stiffness (PBD)').onChange(update);
}
