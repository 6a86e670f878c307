// The scenario module: validation with readable issues, overrides (quick, --set), the matrix, and
// where scenarios come from. Import from here.
export { formatIssues, ScenarioInvalidError } from './errors.js';
export { scenarioJsonSchema, scenarioJsonSchemaText } from './json-schema.js';
export {
  builtinDir,
  builtinScenarioNames,
  builtinScenarioPath,
  readBuiltinScenarioText,
  SCHEMA_FILE_NAME,
} from './builtin.js';
export { listBuiltinScenarios, type BuiltinScenarioItem } from './builtin-list.js';
export { loadScenario, resolveScenarioFile, resolveScenarioRef, type LoadedScenario, type LoadOptions } from './load.js';
export { describeQuickProfile, prepareScenario, prepareScenarioText, validateScenarioText, type PreparedScenario } from './prepare.js';
export { quickApplies, quickProfileOf } from './quick-profile.js';
export { expandMatrix, labelValue, MAX_CELLS, tryExpandMatrix, type Cell } from './matrix.js';
export { applyOverride, applyOverrides, applyQuick, applySet, parseSetArg, parseSetValue, type OverrideOptions } from './overrides.js';
export { formatPath, getPath, parsePath, PathError, setPath, type PathSegment } from './param-path.js';
export { lineAndColumn, parseScenarioText } from './parse-text.js';
export { checkSchema } from './schema-check.js';
export { describePhase, describePhaseSize, describeServer, phaseName, serverLabel, serverNames, summarizeScenario } from './summary.js';
export { validateScenario, type ScenarioValidation } from './validate.js';
