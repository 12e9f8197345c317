// The replay viewer: loads the run the server holds under run/, then ties the 3D view, the
// timeline and the energy plot to one current time. When everything has drawn once it sets
// document.body.dataset.ready = "1", dataset.meshes (the number of bodies drawn) and
// dataset.joints (the number of joints drawn), which the headless test waits for; at every time it
// sets dataset.jointGap (the joints' largest error, m). Any failure is shown on the page, not only
// in the console.
import { loadRun } from './run_data.js';
import { Bodies3d } from './bodies3d.js';
import { EnergyPlot } from './energy_plot.js';
import { Timeline } from './timeline.js';

function showError(message) {
  const box = document.getElementById('errors');
  box.hidden = false;
  box.textContent += (box.textContent ? '\n' : '') + message;
  document.body.dataset.error = '1';
}

window.addEventListener('error', (event) => showError(String(event.message)));
window.addEventListener('unhandledrejection', (event) => showError(String(event.reason)));

async function start() {
  const run = await loadRun('run/');
  const times = run.times;
  const duration = times[times.length - 1];
  const joints = run.scene.joints?.length ? `${run.scene.joints.length} joints, ` : '';
  document.getElementById('title').textContent = `carom replay: ${run.scene.source} ` +
    `(${run.scene.bodies.length} bodies, ${joints}${run.events.length} impact events)`;
  const clock = document.getElementById('clock');
  const view = new Bodies3d(document.getElementById('view'), run);
  let plot = null;
  let timeline = null;
  const setTime = (t) => {
    view.setTime(t);
    document.body.dataset.jointGap = String(view.jointGap());
    plot?.setTime(t);
    clock.textContent = `t = ${t.toFixed(3)} s / ${duration.toFixed(3)} s`;
  };
  plot = new EnergyPlot(document.getElementById('energy'), run.energy, duration, (t) => timeline.seek(t));
  timeline = new Timeline(duration, run.events, setTime);
  timeline.seek(0);
  const jointsBox = document.getElementById('joints');
  jointsBox.parentElement.hidden = view.jointParts.length === 0;
  jointsBox.addEventListener('change', () => view.showJoints(jointsBox.checked));
  document.body.dataset.meshes = String(view.meshCount);
  document.body.dataset.joints = String(view.jointParts.length);
  document.body.dataset.ready = '1';
}

start().catch((error) => showError(`cannot show this run: ${error.message}`));
