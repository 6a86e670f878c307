import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { LoadscopeError } from '../../contract/errors.js';
import { version } from '../version.js';
import { CDP_NETWORK_EVENTS, CdpCapture } from './cdp-capture.js';
import { LAUNCH_TIMEOUT_MS, OPEN_TIMEOUT_MS, RECORDING_BOUNDS, RecordingMeter, STOP_TIMEOUT_MS, withDeadline, type RecordingBounds } from './recording-bounds.js';
import type { CapturedRecording, Recording, RecordingProgress } from './recording.js';
import type { PageScript } from './test-page-script.js';
import { removeProfile } from './profile-folder.js';

// A recording in Chromium driven by playwright-core (the CLI's `record` and the browser host's Record
// button): a fresh profile (nothing of the person's own browser: no cookies, no extensions), the URL
// opened in its first tab, every page's traffic captured through a CDP session of its own
// (cdp-capture.ts), until the person stops it, closes the window, or a bound is met.

export interface RecorderOptions {
  url: URL;
  executablePath: string;
  headless: boolean;
  bounds?: RecordingBounds;
  /** called on every change of what is captured (callers throttle what they show) */
  onProgress?: (progress: RecordingProgress) => void;
  /** a test's scripted person (test-page-script.ts) */
  script?: PageScript | null;
}

const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.replace(/^\w+\.\w+: /, '');

async function launch(profile: string, opts: RecorderOptions): Promise<BrowserContext> {
  try {
    return await chromium.launchPersistentContext(profile, {
      executablePath: opts.executablePath,
      headless: opts.headless,
      timeout: LAUNCH_TIMEOUT_MS,
      // Ctrl-C stops the recording and writes the journey: playwright must not close the browser first
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      // headed: the window's own size, as the person sizes it
      viewport: opts.headless ? { width: 1280, height: 800 } : null,
      args: [
        '--no-first-run',
        '--no-default-browser-check',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // Chromium refuses to start as root with its sandbox on (containers, CI)
        ...(typeof process.getuid === 'function' && process.getuid() === 0 ? ['--no-sandbox'] : []),
      ],
    });
  } catch (err) {
    throw new LoadscopeError('LS_ERR_BROWSER_MISSING', `Chromium (${opts.executablePath}) did not start: ${firstLine(err)}`);
  }
}

/** Opens Chromium at the URL and starts capturing; resolves once the first page has answered (or refuses in one line). */
export async function startRecording(opts: RecorderOptions): Promise<Recording> {
  const profile = mkdtempSync(join(tmpdir(), 'loadscope-record-'));
  const meter = new RecordingMeter(opts.bounds ?? RECORDING_BOUNDS, Date.now());
  let endItself: (why: string) => void = () => undefined;
  const ended = new Promise<string>((resolve) => (endItself = resolve));
  const progress = (): RecordingProgress => ({ requests: meter.requests, bytes: meter.bytes });
  const capture = new CdpCapture(meter, () => opts.onProgress?.(progress()), (note) => endItself(note));
  const scriptNotes: string[] = [];

  let context: BrowserContext;
  try {
    context = await launch(profile, opts);
  } catch (err) {
    removeProfile(profile);
    throw err;
  }
  const attach = async (page: Page): Promise<void> => {
    const session = await context.newCDPSession(page);
    await capture.attach(session, (handler) => {
      for (const name of CDP_NETWORK_EVENTS) session.on(name, (params: unknown) => handler(name, params));
    });
  };
  const watch = (page: Page) => {
    // the person closed the last tab (the window): what was captured is kept
    page.once('close', () => context.pages().length === 0 && endItself('the browser window was closed'));
  };
  context.once('close', () => endItself('the browser was closed'));
  const timer = setTimeout(() => meter.expired(Date.now()) && endItself(meter.crossed ?? 'the recording met its time bound'), meter.bounds.durationMs);
  timer.unref();

  let stopping: Promise<CapturedRecording> | undefined;
  const stop = (): Promise<CapturedRecording> =>
    (stopping ??= (async () => {
      clearTimeout(timer);
      capture.close();
      await capture.settle(STOP_TIMEOUT_MS);
      await withDeadline(context.close().catch(() => undefined), STOP_TIMEOUT_MS);
      const leftBehind = removeProfile(profile);
      const notes = [...(meter.crossed === null ? [] : [meter.crossed]), ...capture.notes(), ...scriptNotes, ...(leftBehind === null ? [] : [leftBehind])];
      return { har: capture.har({ name: 'Loadscope', version: version() }), notes, requests: capture.entries().length };
    })());

  try {
    const page = context.pages()[0] ?? (await context.newPage());
    watch(page);
    await attach(page);
    // tabs and popups the person opens later are captured too (from when each is seen)
    context.on('page', (opened) => {
      watch(opened);
      attach(opened).catch(() => undefined);
    });
    await page.goto(opts.url.href, { waitUntil: 'commit', timeout: OPEN_TIMEOUT_MS });
    if (opts.script) opts.script(page, opts.url).catch((err: unknown) => scriptNotes.push(`the page script failed: ${firstLine(err)}`));
  } catch (err) {
    await stop();
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${opts.url.href} did not open in Chromium: ${firstLine(err)}`);
  }
  return { ended, progress, stop };
}
