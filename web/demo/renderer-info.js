// What draws the page: the GPU's name as WebGL reports it, and whether that is a software rasterizer. A page drawn
// in software (no GPU, a VM, a remote desktop, a blocklisted driver) spends the CPU on every pixel, so its frame
// rate says little about the simulation: the page says so next to the build it runs, and draws fewer pixels.

/** Names of rasterizers that run on the CPU, as WebGL's unmasked renderer string gives them. */
const SOFTWARE = /SwiftShader|llvmpipe|softpipe|Software Rasterizer|Microsoft Basic Render/i;

/**
 * @param {WebGLRenderingContext | WebGL2RenderingContext} gl the page's context.
 * @returns {{name: string, software: boolean, rasterizer: string}} name: the renderer's real name where the browser
 *   gives it (else the masked one, 'WebKit WebGL'); software: whether it names a known software rasterizer, and
 *   rasterizer that name ('SwiftShader', 'llvmpipe', ...; '' for a GPU).
 */
export function rendererInfo(gl) {
  let name = String(gl.getParameter(gl.RENDERER));
  // Chromium and Safari mask it; Firefox gives the real name here and warns when the extension is asked for.
  if (name === 'WebKit WebGL') {
    const debug = gl.getExtension('WEBGL_debug_renderer_info');
    if (debug) name = String(gl.getParameter(debug.UNMASKED_RENDERER_WEBGL));
  }
  const rasterizer = name.match(SOFTWARE)?.[0] ?? '';
  return { name, software: rasterizer !== '', rasterizer };
}

/**
 * rendererInfo of a throwaway WebGL context, before the page's own is made: whether to ask that one for
 * antialiasing depends on it. The context is released at once. A browser without WebGL gives a GPU-less answer
 * ({name: '', software: false, rasterizer: ''}); three.js then reports the missing WebGL itself.
 */
export function probeRenderer() {
  const canvas = () => document.createElement('canvas');
  const gl = canvas().getContext('webgl2') ?? canvas().getContext('webgl');
  if (!gl) return { name: '', software: false, rasterizer: '' };
  const info = rendererInfo(gl);
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return info;
}
