import { cpus, hostname, platform, release, totalmem } from 'node:os';
import type { MachineInfo } from '../contract/results.js';
import { version } from './version.js';

/** What a run was measured on, stored with it so figures are never read without their machine. */
export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    hostname: hostname(),
    platform: `${platform()} ${release()}`,
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryBytes: totalmem(),
    node: process.version,
    loadscope: version(),
  };
}
