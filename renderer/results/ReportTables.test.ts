import { describe, expect, it } from 'vitest';
import { columnLabel } from './ReportTables';

describe('columnLabel', () => {
  it('reads a metric key as words and leaves other headers alone', () => {
    expect(columnLabel('wait.mean')).toBe('mean wait');
    expect(columnLabel('total.p999')).toBe('p99.9 total');
    expect(columnLabel('serverWait.p99')).toBe('p99 server wait');
    expect(columnLabel('server')).toBe('server');
    expect(columnLabel('cluster throughput')).toBe('cluster throughput');
  });
});
