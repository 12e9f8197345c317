// The replay viewer in headless Chromium: `carom run` a scene (every shape kind, or a scene with
// joints), `carom view` it, load the page and check that it draws every body and every joint,
// reports no error, fetches nothing from the network, that screenshots of its 3D view are not one
// flat colour and show the bodies moving, and, for a scene with joints, that hiding the joints
// changes the picture (their lines and markers are drawn).
//   node render_test.mjs CAROM SCENE WORK_DIR NODE_MODULES
// Exit 0 pass, 1 fail, 77 (ctest SKIP_RETURN_CODE) when there is no Chromium to drive.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [carom, sceneFile, work, nodeModules] = process.argv.slice(2);
const kSkip = 77;
const chromiumPath = process.env.CAROM_CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(chromiumPath)) {
  // CI sets CAROM_REQUIRE_VIEWER_TEST=1: there, a missing Chromium is a broken setup, not a skip.
  const required = process.env.CAROM_REQUIRE_VIEWER_TEST === '1';
  console.log(`${required ? 'FAIL' : 'skipped'}: no Chromium at ${chromiumPath} (Debian package chromium)`);
  process.exit(required ? 1 : kSkip);
}
const { chromium } = await import(pathToFileURL(join(nodeModules, 'playwright-core', 'index.mjs')));

function fail(message) {
  console.error(`FAIL: ${message}`);
  process.exitCode = 1;
}

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const runDir = join(work, 'run');
const made = spawnSync(carom, ['run', sceneFile, '--duration', '1', '--quiet', '--out', runDir],
  { encoding: 'utf8' });
if (made.status !== 0) throw new Error(`carom run failed: ${made.stderr}`);
const sceneJson = JSON.parse(readFileSync(join(runDir, 'scene.json'), 'utf8'));
const bodyCount = sceneJson.bodies.length;
const jointCount = sceneJson.joints.length;

const server = spawn(carom, ['view', runDir, '--no-open'], { stdio: ['ignore', 'pipe', 'inherit'] });
const serverExit = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));
const url = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk;
    if (out.includes('\n')) resolve(out.split('\n')[0]);
  });
  server.on('exit', () => reject(new Error(`carom view exited before printing its URL: ${out}`)));
});

const started = Date.now();
// Root in a container has no user namespace for Chromium's sandbox; the page is our own. WebGL
// without a GPU runs on SwiftShader, which recent Chromium enables only when asked.
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  const origin = new URL(url).origin;
  await page.route('**/*', (route) => {
    if (route.request().url().startsWith(origin)) return route.continue();
    problems.push(`fetched from the network: ${route.request().url()}`);
    return route.abort();
  });

  await page.goto(url);
  await page.waitForFunction(
    () => document.body.dataset.ready === '1' || document.body.dataset.error === '1',
    null, { timeout: 60000 });
  const state = await page.evaluate(() => ({
    ready: document.body.dataset.ready, meshes: Number(document.body.dataset.meshes),
    joints: Number(document.body.dataset.joints),
    errors: document.getElementById('errors').textContent, ticks: document.querySelectorAll('.tick').length,
  }));
  if (state.ready !== '1') fail(`the page reports: ${state.errors}`);
  if (state.meshes !== bodyCount) fail(`${state.meshes} meshes drawn for ${bodyCount} bodies`);
  if (state.joints !== jointCount) fail(`${state.joints} joints drawn for ${jointCount} joints`);

  // The 3D view at t = 0 and half-way through the run: the dynamic bodies move between the two,
  // so the two images differ where they are drawn; the plane alone would give two equal images.
  const seek = (fraction) => page.evaluate((f) => {
    const slider = document.getElementById('time');
    slider.value = String(Number(slider.max) * f);
    slider.dispatchEvent(new Event('input'));
  }, fraction);
  // Each joint's pivot as body A holds it (from its pose in bodies.csv and its anchor in
  // scene.json) and as body B (or the world) holds it: a wrong frame would put them centimetres
  // apart, the joints' error keeps them within a millimetre.
  const jointGaps = [];
  const gap = () => page.evaluate(() => Number(document.body.dataset.jointGap));
  await seek(0);
  jointGaps.push(await gap());
  const before = await page.locator('#view').screenshot();
  await seek(0.5);
  jointGaps.push(await gap());
  const after = await page.locator('#view').screenshot();
  // At t = 0 again with the joints hidden: the pixels of their lines and markers change.
  let withoutJoints = before;
  if (jointCount > 0) {
    await seek(0);
    await page.locator('#joints').uncheck();
    withoutJoints = await page.locator('#view').screenshot();
    await page.locator('#joints').check();
  }
  const screenshotPath = join(work, 'viewer.png');
  await page.screenshot({ path: screenshotPath });
  if (!jointGaps.every((g) => g >= 0 && g < 1e-3)) {
    fail(`joint pivots ${jointGaps.join(' m and ')} m apart at t = 0 and half-way`);
  }

  // Decode the PNGs in a blank page: the colours of the later one (a view that drew nothing is
  // the background colour alone) and the pixels that changed between them.
  const blank = await browser.newPage();
  const pixels = await blank.evaluate(async ([first, second, third]) => {
    const decode = async (base64) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = new OffscreenCanvas(image.width, image.height);
      const g = canvas.getContext('2d');
      g.drawImage(image, 0, 0);
      return new Uint32Array(g.getImageData(0, 0, image.width, image.height).data.buffer);
    };
    const [a, b, c] = [await decode(first), await decode(second), await decode(third)];
    const colours = new Set(b);
    let changed = 0;
    let joints = 0;
    for (let i = 0; i < b.length; i += 1) {
      if (a[i] !== b[i]) changed += 1;
      if (a[i] !== c[i]) joints += 1;
    }
    return { pixels: b.length, colours: colours.size, changed, joints };
  }, [before, after, withoutJoints].map((png) => png.toString('base64')));
  if (pixels.colours < 50) fail(`the 3D view has ${pixels.colours} colours: it drew (almost) nothing`);
  // Each body of shapes.toml covers some hundreds of pixels at this size.
  if (pixels.changed < 500) fail(`only ${pixels.changed} pixels change as the bodies move`);
  // A string of newtons_cradle_strings.toml is a line some 100 pixels long, with its marker.
  if (jointCount > 0 && pixels.joints < 50 * jointCount) {
    fail(`only ${pixels.joints} pixels change as the ${jointCount} joints are hidden`);
  }
  if (problems.length) fail(problems.join('\n'));
  console.log(`${state.meshes} meshes for ${bodyCount} bodies, ${state.joints} joints for ` +
    `${jointCount}, ${state.ticks} event ticks; 3D view ${pixels.pixels} px, ${pixels.colours} ` +
    `colours, ${pixels.changed} px changed from t = 0 to half-way, ${pixels.joints} px by hiding ` +
    `the joints, pivots within ${Math.max(...jointGaps)} m; ${Date.now() - started} ms in ` +
    `Chromium; screenshot ${screenshotPath}`);
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
const exit = await serverExit;
if (exit.code !== 0) fail(`carom view did not stop cleanly on SIGTERM: ${JSON.stringify(exit)}`);
