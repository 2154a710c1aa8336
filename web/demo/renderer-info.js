// What draws the page: the GPU's name as WebGL reports it, and whether that is a software rasterizer. A page drawn
// in software (no GPU, a VM, a remote desktop, a blocklisted driver) spends the CPU on every pixel, so its frame
// rate says little about the simulation: the page says so next to the build it runs.

/** Names of rasterizers that run on the CPU, as WebGL's unmasked renderer string gives them. */
const SOFTWARE = /SwiftShader|llvmpipe|softpipe|Software Rasterizer|Microsoft Basic Render/i;

/**
 * @param {WebGLRenderingContext | WebGL2RenderingContext} gl the page's context.
 * @returns {{name: string, software: boolean}} name: the unmasked renderer string where the browser gives it (else
 *   the masked one, e.g. 'WebKit WebGL'), software: whether it names a known software rasterizer.
 */
export function rendererInfo(gl) {
  const debug = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(debug ? debug.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  return { name, software: SOFTWARE.test(name) };
}
