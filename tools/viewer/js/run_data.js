// Loads a carom run from the server (the files of INTERFACES.md §3 and scene.json) into arrays
// the viewer can index by frame.
import { parseCsv } from './csv.js';

const kBodiesHeader = 't,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz';
const kEnergyHeader = 't,kinetic,potential,total,px,py,pz,Lx,Ly,Lz';
const kEventsHeader = 't,bodyA,bodyB,law,contacts,impulse,vn_pre,vn_post,dE';

async function fetchText(base, name) {
  const response = await fetch(base + name);
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status} ${response.statusText}`);
  return response.text();
}

// Every frame holds a row per dynamic body; `poses` maps a body name to x, y, z, qw, qx, qy, qz
// per frame (7 numbers a frame), in the frame order of `times`.
function framesOf(rows) {
  const times = [];
  const poses = new Map();
  for (const row of rows) {
    const t = Number(row[0]);
    if (times.length === 0 || times[times.length - 1] !== t) times.push(t);
    if (!poses.has(row[1])) poses.set(row[1], []);
    poses.get(row[1]).push(...row.slice(2, 9).map(Number));
  }
  for (const [name, pose] of poses) {
    if (pose.length !== 7 * times.length) {
      throw new Error(`bodies.csv: body ${name} has ${pose.length / 7} rows for ${times.length} frames`);
    }
  }
  return { times, poses };
}

export async function loadRun(base) {
  const [sceneText, bodiesText, energyText, eventsText] = await Promise.all(
    ['scene.json', 'bodies.csv', 'energy.csv', 'events.csv'].map((name) => fetchText(base, name)));
  const scene = JSON.parse(sceneText);
  const { times, poses } = framesOf(parseCsv('bodies.csv', bodiesText, kBodiesHeader));
  if (times.length === 0) throw new Error('bodies.csv: no frames');
  for (const body of scene.bodies) {
    if (!body.static && !poses.has(body.name)) {
      throw new Error(`bodies.csv: no rows for body ${body.name} of scene.json`);
    }
  }
  const energyRows = parseCsv('energy.csv', energyText, kEnergyHeader).map((r) => r.map(Number));
  const energy = {
    t: energyRows.map((r) => r[0]),
    kinetic: energyRows.map((r) => r[1]),
    potential: energyRows.map((r) => r[2]),
    total: energyRows.map((r) => r[3]),
  };
  const events = parseCsv('events.csv', eventsText, kEventsHeader).map((r) => ({
    t: Number(r[0]), bodyA: r[1], bodyB: r[2], law: r[3], impulse: Number(r[5]),
  }));
  return { scene, times, poses, energy, events };
}
