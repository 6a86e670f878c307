export interface NativeModule {
  name: string;
  /** absolute folder */
  dir: string;
  /** folder relative to the project, with '/' */
  path: string;
  /** has a binding.gyp */
  compiled: boolean;
  /** .node files, relative to dir */
  binaries: string[];
  /** every binary is N-API */
  napi: boolean;
}
export function nativeModules(root: string): NativeModule[];
export function isNapiBinary(file: string): boolean;
export function nodeFiles(dir: string): string[];
