export interface ElectronTarget {
  abi: string;
  platform: string;
  arch: string;
}
export function builtAbi(file: string): string | undefined;
export function electronBuildDir(root: string, name: string, target: ElectronTarget): string;
export function findUnpacked(dir: string): string | undefined;
export function installElectronBinaries(options: { root: string; unpackedDir: string; target: ElectronTarget }): string[];
