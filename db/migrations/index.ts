import { migration001 } from './001-initial.js';
import { migration002 } from './002-sampling-levels.js';
import { migration003 } from './003-measurement-set.js';
import { migration004 } from './004-run-consent.js';
import { migration005 } from './005-thresholds.js';
import { migration006 } from './006-scenario-library.js';
import { migration007 } from './007-run-engine.js';
import { migration008 } from './008-run-groups.js';
import { migration009 } from './009-run-notes.js';
import { migration010 } from './010-request-template.js';
import { migration011 } from './011-baselines.js';
import { migration012 } from './012-client-timing.js';
import { migration013 } from './013-extract-errors.js';
import { migration014 } from './014-window-buckets.js';
import { migration015 } from './015-compare-samples.js';
import { migration016 } from './016-target-protocol.js';
import { migration017 } from './017-run-source-folder.js';
import { migration018 } from './018-phase-connections.js';
import { migration019 } from './019-protocol-errors.js';
import { migration020 } from './020-run-verdicts.js';
import { migration021 } from './021-cpu-shares.js';
import { migration022 } from './022-first-requests.js';
import { migration023 } from './023-trace-ids.js';
import { migration024 } from './024-library-data-files.js';
import { migration025 } from './025-check-errors.js';
import { migration026 } from './026-target-instances.js';
import { migration027 } from './027-streams.js';
import { migration028 } from './028-request-packs.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

/** Every migration, in order: versions 1..n without gaps (checked when applied). */
export const MIGRATIONS: readonly Migration[] = [migration001, migration002, migration003, migration004, migration005, migration006, migration007, migration008, migration009, migration010, migration011, migration012, migration013, migration014, migration015, migration016, migration017, migration018, migration019, migration020, migration021, migration022, migration023, migration024, migration025, migration026, migration027, migration028];

export const SCHEMA_VERSION = MIGRATIONS.length;
