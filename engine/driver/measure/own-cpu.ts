// The load generator's own CPU, one figure per live window: process.cpuUsage() is the whole
// Loadscope process (every thread: the driver's worker, the main thread storing rows and windows),
// whichever thread asks, so the worker's window tick measures what drives the load. A generator whose
// CPU is near a core sends late or not at all (generator-limited reads it).

/** CPU since the previous take, as a percent of one core (100 = one core busy the whole time). */
export class OwnCpu {
  private usage = process.cpuUsage();
  private at = performance.now();

  take(): number {
    const now = performance.now();
    const used = process.cpuUsage(this.usage);
    const elapsedMs = now - this.at;
    this.usage = process.cpuUsage();
    this.at = now;
    return elapsedMs > 0 ? ((used.user + used.system) / 1000 / elapsedMs) * 100 : 0;
  }
}
