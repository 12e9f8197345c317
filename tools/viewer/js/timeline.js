// The timeline: a slider over the run's time, play/pause, a playback speed, and a tick per impact
// event (events.csv) that seeks to it when clicked.
export class Timeline {
  constructor(duration, events, onTime) {
    this.duration = duration;
    this.onTime = onTime;
    this.t = 0;
    this.playing = false;
    this.slider = document.getElementById('time');
    this.playButton = document.getElementById('play');
    this.speed = document.getElementById('speed');
    this.slider.max = String(duration);
    this.slider.disabled = false;
    this.playButton.disabled = false;
    this.slider.addEventListener('input', () => this.seek(Number(this.slider.value)));
    this.playButton.addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    const ticks = document.getElementById('ticks');
    for (const event of events) {
      const tick = document.createElement('div');
      tick.className = 'tick';
      tick.style.left = `${(100 * event.t) / (duration > 0 ? duration : 1)}%`;
      tick.title = `t = ${event.t} s: ${event.bodyA} – ${event.bodyB} (${event.law}), ` +
        `impulse ${event.impulse} N·s`;
      tick.addEventListener('click', () => this.seek(event.t));
      ticks.appendChild(tick);
    }
    this.tickCount = events.length;
  }

  seek(t) {
    this.t = Math.min(Math.max(t, 0), this.duration);
    this.slider.value = String(this.t);
    this.onTime(this.t);
  }

  play() {
    if (this.t >= this.duration) this.seek(0);  // play again from the start
    this.playing = true;
    this.playButton.textContent = '❚❚ pause';
    let last = performance.now();
    const step = (now) => {
      if (!this.playing) return;
      const t = this.t + ((now - last) / 1000) * Number(this.speed.value);
      last = now;
      this.seek(t);
      if (this.t >= this.duration) this.pause(); else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }

  pause() {
    this.playing = false;
    this.playButton.textContent = '▶ play';
  }
}
