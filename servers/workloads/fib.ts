/**
 * The deliberately naive recursive Fibonacci of seeds 000 and 004: exponential, CPU-bound, no memo.
 * fib(0) = 0, fib(1) = 1, fib(10) = 55, fib(30) = 832040. fib(35) takes ~50-100 ms on one core.
 */
export function fib(n: number): number {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
