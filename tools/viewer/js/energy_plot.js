// The energy plot under the 3D view: kinetic, potential and total energy (energy.csv) against t,
// with a cursor at the current time. Clicking it seeks there.
const kSeries = [
  ['kinetic', '#1f77b4'],
  ['potential', '#2ca02c'],
  ['total', '#d62728'],
];
const kMargin = { left: 64, right: 12, top: 12, bottom: 24 };

export class EnergyPlot {
  constructor(canvas, energy, duration, onSeek) {
    this.canvas = canvas;
    this.energy = energy;
    this.duration = duration > 0 ? duration : 1;
    this.t = 0;
    const values = kSeries.flatMap(([key]) => energy[key]).filter(Number.isFinite);
    this.low = values.length ? Math.min(...values) : 0;
    this.high = values.length ? Math.max(...values) : 1;
    if (this.high - this.low < 1e-12) {  // a flat line still needs a scale to sit on
      this.low -= 0.5;
      this.high += 0.5;
    }
    // 5 % of room above and below, so that a line at the extremes is not hidden by the frame.
    const pad = 0.05 * (this.high - this.low);
    this.low -= pad;
    this.high += pad;
    canvas.addEventListener('click', (event) => {
      const x = event.offsetX * (canvas.width / canvas.clientWidth);
      onSeek(Math.min(Math.max(this.timeAt(x), 0), this.duration));
    });
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  x(t) { return kMargin.left + (t / this.duration) * (this.canvas.width - kMargin.left - kMargin.right); }
  timeAt(x) { return ((x - kMargin.left) / (this.canvas.width - kMargin.left - kMargin.right)) * this.duration; }
  y(e) {
    const height = this.canvas.height - kMargin.top - kMargin.bottom;
    return kMargin.top + (1 - (e - this.low) / (this.high - this.low)) * height;
  }

  setTime(t) {
    this.t = t;
    this.draw();
  }

  draw() {
    const canvas = this.canvas;
    canvas.width = Math.max(canvas.clientWidth, 1);
    canvas.height = Math.max(canvas.clientHeight, 1);
    const g = canvas.getContext('2d');
    g.clearRect(0, 0, canvas.width, canvas.height);
    g.font = '11px system-ui, sans-serif';
    g.strokeStyle = '#999';
    g.strokeRect(kMargin.left, kMargin.top, this.x(this.duration) - kMargin.left,
      this.y(this.low) - kMargin.top);
    g.fillStyle = '#333';
    g.textAlign = 'right';
    g.fillText(`${this.high.toPrecision(4)} J`, kMargin.left - 4, this.y(this.high) + 8);
    g.fillText(`${this.low.toPrecision(4)} J`, kMargin.left - 4, this.y(this.low));
    g.textAlign = 'center';
    g.fillText('0 s', this.x(0), canvas.height - 8);
    g.fillText(`${this.duration.toPrecision(4)} s`, this.x(this.duration) - 16, canvas.height - 8);
    kSeries.forEach(([key, color], index) => {
      g.strokeStyle = color;
      g.lineWidth = 1.5;
      g.beginPath();
      this.energy.t.forEach((t, i) => {
        const px = this.x(t);
        const py = this.y(this.energy[key][i]);
        if (i === 0) g.moveTo(px, py); else g.lineTo(px, py);
      });
      g.stroke();
      g.fillStyle = color;
      g.textAlign = 'center';  // the legend, in the bottom margin where no line runs
      g.fillText(key, canvas.width / 2 + 70 * (index - 1), canvas.height - 8);
    });
    g.strokeStyle = '#000';
    g.lineWidth = 1;
    g.beginPath();
    g.moveTo(this.x(this.t), kMargin.top);
    g.lineTo(this.x(this.t), this.y(this.low));
    g.stroke();
  }
}
