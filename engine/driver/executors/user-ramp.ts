/**
 * The users a ramp allows over time (µs from the phase start): linear from the previous target
 * (startUsers first) to each stage's target over the stage, 0 after the last stage; floored.
 */
export class UserRamp {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly from: number[] = [];
  private readonly to: number[] = [];

  constructor(startUsers: number, stages: readonly { durationMs: number; target: number }[]) {
    let t = 0;
    let prev = startUsers;
    for (const s of stages) {
      this.starts.push(t);
      t += s.durationMs * 1000;
      this.ends.push(t);
      this.from.push(prev);
      this.to.push(s.target);
      prev = s.target;
    }
  }

  usersAt(relUs: number): number {
    for (let i = 0; i < this.starts.length; i++) {
      if (relUs < this.ends[i]!) {
        const f = (relUs - this.starts[i]!) / (this.ends[i]! - this.starts[i]!);
        return Math.floor(this.from[i]! + (this.to[i]! - this.from[i]!) * Math.max(0, f) + 1e-9);
      }
    }
    return 0;
  }

  /** The first time (µs, >= fromUs) at which the ramp allows `users`, Infinity if it never does again. */
  timeUsersReach(users: number, fromUs: number): number {
    for (let i = 0; i < this.starts.length; i++) {
      const s = this.starts[i]!;
      const e = this.ends[i]!;
      if (e <= fromUs) continue;
      const a = this.from[i]!;
      const b = this.to[i]!;
      const lo = Math.max(s, fromUs);
      if (this.usersAt(lo) >= users) return lo;
      if (b > a && b >= users) {
        const t = Math.ceil(s + ((users - a) / (b - a)) * (e - s));
        if (t < e) return Math.max(lo, t);
      }
    }
    return Infinity;
  }
}
