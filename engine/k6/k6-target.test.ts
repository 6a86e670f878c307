import { describe, expect, it } from 'vitest';
import { checkExportTarget, k6LoopbackUrl } from './k6-target.js';

describe('what k6 may be pointed at', () => {
  it('takes loopback literals as they are and resolves localhost to a loopback address here', async () => {
    expect(await k6LoopbackUrl('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
    expect(await k6LoopbackUrl('http://[::1]:9')).toBe('http://[::1]:9');
    expect(await k6LoopbackUrl('http://localhost:8080')).toMatch(/^http:\/\/(127\.\d+\.\d+\.\d+|\[::1\]):8080$/);
  });

  it('refuses anything off this machine, however it is spelled, before k6 starts', async () => {
    await expect(k6LoopbackUrl('http://10.0.0.1:80')).rejects.toMatchObject({ code: 'LS_ERR_NOT_LOOPBACK' });
    await expect(k6LoopbackUrl('http://127.0.0.1:1@10.0.0.1/')).rejects.toMatchObject({ code: 'LS_ERR_BAD_REQUEST' });
    expect(() => checkExportTarget('http://192.168.1.5')).toThrow(/only goes to this machine/);
    expect(checkExportTarget('http://localhost:8080/')).toBe('http://localhost:8080');
  });
});
