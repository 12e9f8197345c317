// The 3D view: a three.js mesh per body of scene.json, posed at a time of the run, and a marker
// and lines per joint, placed from the poses of its bodies. carom's world is z-up, so the camera
// is too.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { ConvexGeometry } from 'three/addons/geometries/ConvexGeometry.js';
import { mergeGeometries } from 'three/addons/utils/BufferGeometryUtils.js';

const kPalette = [0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x17becf];
const kZ = new THREE.Vector3(0, 0, 1);

const vec = (a) => new THREE.Vector3(a[0], a[1], a[2]);

// Capsules and cylinders lie along the body's z axis (INTERFACES.md §4); three.js builds them
// along y.
function alongZ(geometry) {
  return geometry.rotateX(Math.PI / 2);
}

function geometryOf(body, planeSize) {
  switch (body.shape) {
    case 'sphere': return new THREE.SphereGeometry(body.radius, 32, 16);
    case 'box': {
      const [a, b, c] = body.half_extents;
      return new THREE.BoxGeometry(2 * a, 2 * b, 2 * c);
    }
    case 'ellipsoid': {
      const [a, b, c] = body.semi_axes;
      return new THREE.SphereGeometry(1, 32, 16).scale(a, b, c);
    }
    case 'capsule':
      return alongZ(new THREE.CapsuleGeometry(body.radius, 2 * body.half_height, 8, 24));
    case 'cylinder':
      return alongZ(new THREE.CylinderGeometry(body.radius, body.radius, 2 * body.half_height, 32));
    case 'convex_hull': return new ConvexGeometry(body.points.map(vec));
    case 'plane': return new THREE.PlaneGeometry(planeSize, planeSize);
    case 'compound': return compoundGeometry(body, planeSize);
    default: throw new Error(`scene.json: body ${body.name}: unknown shape "${body.shape}"`);
  }
}

// A compound is the union of its children, each posed in the body frame, merged into one geometry
// so that a body stays one mesh. Merging needs the same attributes everywhere: positions and
// normals, unindexed (a convex hull has no uv and no index).
function compoundGeometry(body, planeSize) {
  return mergeGeometries(body.children.map((child) => {
    const built = geometryOf(child, planeSize);
    const geometry = built.index ? built.toNonIndexed() : built;
    geometry.deleteAttribute('uv');
    const [w, x, y, z] = child.orientation;
    geometry.applyQuaternion(new THREE.Quaternion(x, y, z, w));
    return geometry.translate(...child.position);
  }));
}

// The box around every position a dynamic body takes, every static body that is not a plane and
// every pivot fixed in the world (the top of a pendulum's string).
function boundsOf(run) {
  const box = new THREE.Box3();
  for (const pose of run.poses.values()) {
    for (let i = 0; i < pose.length; i += 7) box.expandByPoint(new THREE.Vector3(pose[i], pose[i + 1], pose[i + 2]));
  }
  for (const body of run.scene.bodies) {
    if (body.shape !== 'plane') box.expandByPoint(vec(body.position));
  }
  for (const joint of run.scene.joints ?? []) {
    if (joint.body_b === null) box.expandByPoint(vec(joint.pivot_b));
  }
  if (box.isEmpty()) box.expandByPoint(new THREE.Vector3());
  return box;
}

function planeMesh(body, center, size, material) {
  const mesh = new THREE.Mesh(geometryOf(body, size), material);
  const normal = vec(body.normal).normalize();
  mesh.quaternion.setFromUnitVectors(kZ, normal);
  // The plane n·x = offset, centred under the bodies rather than at the world origin.
  const foot = center.clone().addScaledVector(normal, body.offset - normal.dot(center));
  mesh.position.copy(foot);
  // A grid on it gives the eye distances and depth; three.js draws grids in its xz plane.
  const grid = new THREE.GridHelper(size, 40, 0x5f6a73, 0x7f8a93);
  grid.rotation.x = Math.PI / 2;
  grid.position.z = 1e-3 * size;  // just above the quad, so that the two do not flicker
  mesh.add(grid);
  return mesh;
}

// Joints are drawn over the bodies (no depth test, after them): a pivot is mostly inside a body or
// on its surface, where the body's mesh would hide it.
const kJointMarker = new THREE.MeshBasicMaterial({ color: 0xd35400, depthTest: false });
const kJointLine = new THREE.LineBasicMaterial({ color: 0x22313f, depthTest: false });
const kJointAxis = new THREE.LineBasicMaterial({ color: 0xd35400, depthTest: false });

// A joint's parts: a marker at its pivot, one polyline from body A's centre to the pivot as body A
// holds it, on to the pivot as body B holds it (the two differ by the joint's error) and to body
// B's centre (for a joint to the world, the fixed pivot), and for a joint with an axis (hinge,
// slider, cone_twist, six_dof) a segment along the axis through the pivot, turning with body A.
// `a` and `b` are the bodies' posed objects (b null for the world).
class JointParts {
  constructor(joint, a, b, size, group) {
    this.a = a;
    this.b = b;
    this.pivotA = vec(joint.pivot_a);
    this.pivotB = vec(joint.pivot_b);
    this.axisA = joint.axis_a ? vec(joint.axis_a).multiplyScalar(4 * size) : null;
    this.marker = new THREE.Mesh(new THREE.SphereGeometry(size, 12, 8), kJointMarker);
    this.line = polyline(4, kJointLine);
    const parts = [this.line, this.marker];
    if (this.axisA) {
      this.axis = polyline(2, kJointAxis);
      parts.push(this.axis);
    }
    for (const part of parts) part.renderOrder = 1;
    group.add(...parts);
  }

  place() {
    const pa = this.pivotA.clone().applyQuaternion(this.a.quaternion).add(this.a.position);
    const pb = this.b
      ? this.pivotB.clone().applyQuaternion(this.b.quaternion).add(this.b.position)
      : this.pivotB;
    this.gap = pa.distanceTo(pb);
    this.marker.position.copy(pa);
    setPoints(this.line, [this.a.position, pa, pb, this.b ? this.b.position : pb]);
    if (this.axisA) {
      const half = this.axisA.clone().applyQuaternion(this.a.quaternion);
      setPoints(this.axis, [pa.clone().sub(half), pa.clone().add(half)]);
    }
  }
}

// A line through `count` points that move every frame: three.js does not cull it by a bounding
// sphere computed once.
function polyline(count, material) {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * count), 3));
  const line = new THREE.Line(geometry, material);
  line.frustumCulled = false;
  return line;
}

function setPoints(line, points) {
  const position = line.geometry.getAttribute('position');
  points.forEach((p, i) => position.setXYZ(i, p.x, p.y, p.z));
  position.needsUpdate = true;
}

export class Bodies3d {
  constructor(container, run) {
    this.run = run;
    this.renderer = new THREE.WebGLRenderer({ antialias: true });
    this.renderer.setPixelRatio(window.devicePixelRatio);
    container.appendChild(this.renderer.domElement);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0xe8eef3);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x445566, 1.5));
    const sun = new THREE.DirectionalLight(0xffffff, 1.5);
    sun.position.set(3, -2, 5);
    this.scene.add(sun);

    const bounds = boundsOf(run);
    const center = bounds.getCenter(new THREE.Vector3());
    const extent = Math.max(bounds.getSize(new THREE.Vector3()).length(), 0.2);
    this.meshes = new Map();  // dynamic body name → mesh, posed every frame
    let meshCount = 0;
    run.scene.bodies.forEach((body, index) => {
      const material = new THREE.MeshStandardMaterial({
        color: body.static ? 0x9aa3ab : kPalette[index % kPalette.length],
        roughness: 0.6, side: body.shape === 'plane' ? THREE.DoubleSide : THREE.FrontSide,
      });
      const mesh = body.shape === 'plane'
        ? planeMesh(body, center, 4 * extent, material)
        : new THREE.Mesh(geometryOf(body), material);
      mesh.name = body.name;
      if (body.shape !== 'plane') {
        mesh.position.copy(vec(body.position));
        const [w, x, y, z] = body.orientation;
        mesh.quaternion.set(x, y, z, w);
      }
      if (!body.static) this.meshes.set(body.name, mesh);
      this.scene.add(mesh);
      meshCount += 1;
    });
    this.meshCount = meshCount;

    // Joints hold dynamic bodies (posed every frame by their meshes) or static ones (posed as
    // scene.json has them; a plane's mesh is placed under the bodies, not at its body frame).
    const posed = new Map(this.meshes);
    for (const body of run.scene.bodies) {
      if (!body.static) continue;
      const still = new THREE.Object3D();
      still.position.copy(vec(body.position));
      const [w, x, y, z] = body.orientation;
      still.quaternion.set(x, y, z, w);
      posed.set(body.name, still);
    }
    const poseOf = (name) => {
      if (!posed.has(name)) throw new Error(`scene.json: a joint names no body "${name}"`);
      return posed.get(name);
    };
    this.joints = new THREE.Group();
    this.jointParts = (run.scene.joints ?? []).map((joint) => new JointParts(
      joint, poseOf(joint.body_a), joint.body_b === null ? null : poseOf(joint.body_b),
      0.012 * extent, this.joints));
    this.scene.add(this.joints);

    this.camera = new THREE.PerspectiveCamera(45, 1, extent / 1000, extent * 100);
    this.camera.up.copy(kZ);
    this.camera.position.copy(center).add(new THREE.Vector3(0.3, -1.0, 0.45).multiplyScalar(extent));
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.target.copy(center);
    this.controls.addEventListener('change', () => this.render());
    this.controls.update();
    new ResizeObserver(() => this.resize(container)).observe(container);
    this.resize(container);
  }

  resize(container) {
    const width = Math.max(container.clientWidth, 1);
    const height = Math.max(container.clientHeight, 1);
    this.renderer.setSize(width, height);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.render();
  }

  // Poses the dynamic bodies at time t, between the two frames around it: positions linearly,
  // orientations by slerp, so that slow playback does not jump from frame to frame.
  setTime(t) {
    const { times, poses } = this.run;
    let i = 0;
    let hi = times.length - 1;
    while (i < hi) {  // the last frame at or before t
      const mid = (i + hi + 1) >> 1;
      if (times[mid] <= t) i = mid; else hi = mid - 1;
    }
    const j = Math.min(i + 1, times.length - 1);
    const s = j > i ? Math.min(Math.max((t - times[i]) / (times[j] - times[i]), 0), 1) : 0;
    const qa = new THREE.Quaternion();
    const qb = new THREE.Quaternion();
    for (const [name, mesh] of this.meshes) {
      const p = poses.get(name);
      const a = 7 * i;
      const b = 7 * j;
      mesh.position.set(p[a], p[a + 1], p[a + 2]).lerp(new THREE.Vector3(p[b], p[b + 1], p[b + 2]), s);
      qa.set(p[a + 4], p[a + 5], p[a + 6], p[a + 3]);
      qb.set(p[b + 4], p[b + 5], p[b + 6], p[b + 3]);
      mesh.quaternion.slerpQuaternions(qa, qb, s);
    }
    for (const joint of this.jointParts) joint.place();
    this.render();
  }

  // The largest distance between a joint's pivot as its two bodies hold it, at the time last set
  // (m): the joints' error, small where scene.json's anchors and bodies.csv's poses agree.
  jointGap() {
    return Math.max(0, ...this.jointParts.map((joint) => joint.gap));
  }

  showJoints(shown) {
    this.joints.visible = shown;
    this.render();
  }

  render() {
    this.renderer.render(this.scene, this.camera);
  }
}
