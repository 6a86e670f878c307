// static: exactly `size` bytes, as a file server would send a file of that size (seed 001's 4 KB).
// One cached buffer per size, so the work is the sending, not the making.

const cache = new Map<number, Buffer>();
const MAX_CACHED_BYTES = 256 * 1024 * 1024;
let cachedBytes = 0;

export function staticBody(size: number): Buffer {
  let body = cache.get(size);
  if (!body) {
    body = Buffer.alloc(size, 'loadscope static body. ');
    if (cachedBytes + size <= MAX_CACHED_BYTES) {
      cache.set(size, body);
      cachedBytes += size;
    }
  }
  return body;
}
