// What draws the page: the GPU's name as WebGL reports it, and whether that is a software rasterizer. A page drawn
// in software (no GPU, a VM, a remote desktop, a blocklisted driver) spends the CPU on every pixel, so its frame
// rate says little about the simulation: the page says so next to the build it runs.

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
