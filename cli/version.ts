export { version } from '../engine/version.js';
