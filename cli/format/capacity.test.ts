import { describe, expect, it } from 'vitest';
import { syntheticCapacity } from '../../contract/capacity/test-support/synthetic-capacity.js';
import { formatCapacity } from './capacity.js';

describe('the capacity table', () => {
  it('a users search is labelled in users: the heading, the table and its steps', () => {
    const users = [syntheticCapacity('single', [100, 200, 400, 300], 400)].map((s) => ({ ...s, capacity: { ...s.capacity, mode: 'users' as const } }));
    const text = formatCapacity(users);
    expect(text).toMatch(/^Capacity \(the most closed-loop users that held every limit/);
    expect(text).toContain('sustainable (users)');
    expect(text).toContain('offered (users)');
    expect(text).toContain('400 users');
    expect(text).not.toMatch(/sustainable \(req\/s\)|offered \(req\/s\)/);
    expect(formatCapacity([syntheticCapacity('single', [100, 200, 400, 300], 400)])).toContain('sustainable (req/s)');
  });
});
