import type { Command } from 'commander';
import { registerCompare } from './compare.js';
import { registerDelete } from './delete.js';
import { registerExport } from './export.js';
import { registerExportK6 } from './export-k6.js';
import { registerImportK6 } from './import-k6.js';
import { registerList } from './list.js';
import { registerReproduce } from './reproduce.js';
import { registerRun } from './run.js';
import { registerScenarios } from './scenarios.js';
import { registerServe } from './serve.js';
import { registerServers } from './servers.js';
import { registerShow } from './show.js';
import { registerUi } from './ui.js';
import { registerValidate } from './validate.js';

/** Every verb, one file each. */
export const commands: ReadonlyArray<(program: Command) => void> = [
  registerRun,
  registerList,
  registerShow,
  registerCompare,
  registerExport,
  registerExportK6,
  registerImportK6,
  registerDelete,
  registerScenarios,
  registerValidate,
  registerServers,
  registerServe,
  registerUi,
  registerReproduce,
];
