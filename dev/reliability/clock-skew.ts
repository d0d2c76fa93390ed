// Preloaded (`--import`) into a benchmarked Parley process to set its clock PARLEY_CLOCK_SKEW_MS off the host's, as a
// second machine with a drifting clock would be: `Date.now()` and `new Date()` move, the database's clock does not.
// Bench-only: product code is not touched, so the bench measures exactly the code it runs.
const skew = Number(process.env.PARLEY_CLOCK_SKEW_MS ?? 0);
if (Number.isFinite(skew) && skew !== 0) {
  const RealDate = Date;
  const realNow = Date.now.bind(Date);
  class SkewedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(realNow() + skew);
      else super(...(args as [string]));
    }
    static override now(): number {
      return realNow() + skew;
    }
  }
  globalThis.Date = SkewedDate as DateConstructor;
}
