// Live plots on the page, cheap enough to leave on: the residual per projection pass of the last step (convergence),
// kinetic + potential energy over time, and solver milliseconds per step. One small 2D canvas each; the residual
// plot of a scene of several named worlds (the solver comparison) has a legend under it, a colour and a name a curve.
const HISTORY = 300;   // frames kept for the time plots (5 s at 60 fps)
const RESIDUAL_COLOURS = ['#7fd4ff', '#ffb36b', '#a4e37c', '#f07fd0', '#fff27f', '#c3a6ff', '#ff7f7f'];
const residualColour = (world) => RESIDUAL_COLOURS[world % RESIDUAL_COLOURS.length];

function line(ctx, values, { lo, hi, colour, width, height }) {
  ctx.strokeStyle = colour;
  ctx.beginPath();
  values.forEach((y, k) => {
    const px = values.length > 1 ? (k / (values.length - 1)) * (width - 8) + 4 : width / 2;
    const py = height - 14 - ((y - lo) / (hi - lo || 1)) * (height - 22);
    k ? ctx.lineTo(px, py) : ctx.moveTo(px, py);
  });
  ctx.stroke();
}

function caption(ctx, text, height) {
  ctx.fillStyle = '#ccd';
  ctx.fillText(text, 4, height - 3);
}

export class Plots {
  constructor(residualCanvas, energyCanvas, timeCanvas, residualLegend) {
    this.canvases = { residual: residualCanvas, energy: energyCanvas, time: timeCanvas };
    this.legend = residualLegend;
    this.energy = [];
    this.ms = [];
    this.drawnCurves = [];   // the residual curves last drawn: {world, colour}
  }

  /**
   * The residual legend: one entry per named world, in the colour of that world's curve (`names` per world, null
   * for none). Fewer than two names: no legend (one curve needs none).
   */
  setLegend(names) {
    const entries = names.map((name, world) => ({ name, world })).filter((e) => e.name);
    this.legend.replaceChildren(...(entries.length < 2 ? [] : entries.map(({ name, world }) => {
      const entry = document.createElement('span');
      entry.dataset.world = world;
      entry.dataset.colour = residualColour(world);
      const swatch = entry.appendChild(document.createElement('i'));
      swatch.style.background = residualColour(world);
      entry.append(name);
      return entry;
    })));
    this.legend.style.display = entries.length < 2 ? 'none' : '';
  }

  /** One frame's figures: residual pairs per world, energy {kinetic, potential} in J, solver ms. */
  push({ residuals, energy, solverMs }) {
    this.residuals = residuals;
    if (energy) this.energy.push(energy);
    this.ms.push(solverMs);
    if (this.energy.length > HISTORY) this.energy.shift();
    if (this.ms.length > HISTORY) this.ms.shift();
  }

  draw() {
    this.drawResiduals();
    this.drawEnergy();
    this.drawTime();
  }

  drawResiduals() {
    const canvas = this.canvases.residual;
    const ctx = canvas.getContext('2d');
    const { width, height } = canvas;
    ctx.clearRect(0, 0, width, height);
    // One line per world that recorded (the solver comparison shows all of them), in its world's colour, whether
    // or not a world before it recorded: the legend's colours are per world.
    const lanes = (this.residuals ?? []).map((r, world) => ({ r, world })).filter(({ r }) => r.length);
    this.drawnCurves = lanes.map(({ world }) => ({ world, colour: residualColour(world) }));
    if (!lanes.length) return;
    // RMS per pass, log scale.
    const curves = lanes.map(({ r }) => Array.from({ length: r.length / 2 },
      (_, k) => Math.log10(Math.max(r[2 * k + 1], 1e-12))));
    const all = curves.flat();
    const lo = Math.min(...all) - 0.2, hi = Math.max(...all) + 0.2;
    curves.forEach((c, k) => line(ctx, c, { lo, hi, colour: residualColour(lanes[k].world), width, height }));
    const first = lanes[0].r;
    const last = first[first.length - 1];
    caption(ctx, `RMS residual per pass (log), last ${last.toExponential(1)} m`, height);
  }

  drawEnergy() {
    const canvas = this.canvases.energy;
    const ctx = canvas.getContext('2d');
    const { width, height } = canvas;
    ctx.clearRect(0, 0, width, height);
    if (this.energy.length < 2) return;
    const total = this.energy.map((e) => e.kinetic + e.potential);
    const kinetic = this.energy.map((e) => e.kinetic);
    const all = total.concat(kinetic);
    const lo = Math.min(...all), hi = Math.max(...all);
    line(ctx, total, { lo, hi, colour: '#ffd27f', width, height });
    line(ctx, kinetic, { lo, hi, colour: '#7fd4ff', width, height });
    caption(ctx, `energy: total ${total.at(-1).toFixed(2)} J, kinetic ${kinetic.at(-1).toFixed(2)} J`, height);
  }

  drawTime() {
    const canvas = this.canvases.time;
    const ctx = canvas.getContext('2d');
    const { width, height } = canvas;
    ctx.clearRect(0, 0, width, height);
    if (this.ms.length < 2) return;
    line(ctx, this.ms, { lo: 0, hi: Math.max(...this.ms, 1), colour: '#a4e37c', width, height });
    caption(ctx, `solver ${this.ms.at(-1).toFixed(2)} ms per step (max ${Math.max(...this.ms).toFixed(1)})`, height);
  }
}
