// The gallery: every scene the page can show, by the name used in the URL (?scene=...) and the panel.
//
// A scene is { title, hint, camera, params?, selfCollisionRadius?, acceptsDroppedMeshes?, build(ctx) }. build gets
// ctx = { pbd, addWorld(lane?), assets } and returns { drawables, colliders, tunable, materials?, onFrame?(t), step?(),
// dispose?(), info? } (see drawables.js). `step` replaces its world's own step: a coupling that steps it with another
// engine's world (Rapier's, which the host initializes before it builds any scene); `dispose` frees what else the
// scene made. `tunable` lists the distance-constraint ranges the panel's stiffness and compliance act on, and
// `materials` the Neo-Hookean bodies ({world, body}) its Young's modulus and Poisson's ratio act on. A scene's
// `params` name the other constraint kinds it has, with the values it built them with (constraint-params.js). Scenes
// are plain modules with no DOM: the simulation worker builds them, and the soak test runs them in Node.
import balloon from './balloon.js';
import bowling from './bowling.js';
import cape from './cape.js';
import curtain from './curtain.js';
import drape from './drape.js';
import flagPole from './flag-pole.js';
import fold from './fold.js';
import hammock from './hammock.js';
import playground from './playground.js';
import rods from './rods.js';
import ropes from './ropes.js';
import showcase from './showcase.js';
import solvers from './solvers.js';
import stack from './stack.js';
import tearing from './tearing.js';
import trampoline from './trampoline.js';
import wreckingBall from './wrecking-ball.js';

export const SCENES = { showcase, curtain, drape, fold, stack, balloon, ropes, rods, tearing, solvers, cape, hammock,
  trampoline, 'wrecking-ball': wreckingBall, bowling, 'flag-pole': flagPole, playground };
export const DEFAULT_SCENE = 'showcase';
